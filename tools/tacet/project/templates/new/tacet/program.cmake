# SPDX-License-Identifier: MIT (a fragment: tacet new puts it into CMakeLists.txt, without this line)
# The threads, timers and kernel objects are those of app.yaml: tacet_add_app() generates the
# code that creates them (tacet_app.c, tacet_app.h) at build time, and main.c holds the
# functions they run.
add_executable(@NAME@ main.c)
target_link_libraries(@NAME@ PRIVATE tacet::kernel)
target_compile_options(@NAME@ PRIVATE -Wall -Wextra)
tacet_add_app(@NAME@ app.yaml)
