# SPDX-License-Identifier: MIT (a fragment: tacet new puts it into CMakeLists.txt, without this line)
# main.c calls CMSIS-RTOS2 alone (cmsis_os2.h): tacet::cmsis_os2 is that API on Tacet's kernel
# (Tacet's docs/cmsis-rtos2.md).
add_executable(@NAME@ main.c)
target_link_libraries(@NAME@ PRIVATE tacet::cmsis_os2)
target_compile_options(@NAME@ PRIVATE -Wall -Wextra)
