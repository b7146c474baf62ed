# SPDX-License-Identifier: MIT
"""The porting guide's second board (ports/cortex-m/boards/stm32f407, docs/porting.md): built
for a real chip, not run (QEMU has no model of its clock tree). The examples link for it, and
the ELF files are what the chip needs: everything within its memory, the vector table at the
start of flash with the stack top, the reset entry, SysTick and the handlers, under ST's
CMSIS names, where the core looks for them."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO

pytestmark = pytest.mark.skipif(
    not all(shutil.which(t) for t in ("cmake", "ninja", "arm-none-eabi-gcc")),
    reason="needs cmake, ninja and arm-none-eabi-gcc",
)

FLASH = (0x08000000, 1024 * 1024)
RAM = (0x20000000, 128 * 1024)
CCM = (0x10000000, 64 * 1024)
IRQS = 82  # external interrupt lines of the STM32F407: 0 (WWDG) .. 81 (FPU)
TIM5_IRQ = 50
USART2_IRQ = 38
TIM2_IRQ = 28
# The examples that build for every port; producer_consumer also links the kernel with energy
# accounting (TC_POWER=1), whose switch path reads TIM5's count from assembly; device_interrupt
# installs TIM2_IRQHandler, under ST's name.
EXAMPLES = ("threads", "producer_consumer", "periodic_control", "device_interrupt")


def configure(build: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["cmake", "-S", str(REPO), "-B", str(build), "-G", "Ninja",
         f"-DCMAKE_TOOLCHAIN_FILE={REPO / 'cmake' / 'arm-none-eabi.cmake'}",
         "-DTACET_PORT=cortex-m", "-DTACET_CM_BOARD=stm32f407", *options],
        capture_output=True, text=True, check=False,
    )  # fmt: skip


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    build = tmp_path_factory.mktemp("stm32f407")
    done = configure(build, "-DTACET_CPU=cortex-m4f", "-DTACET_BUILD_TESTS=OFF")
    assert done.returncode == 0, done.stdout + done.stderr
    done = subprocess.run(
        ["cmake", "--build", str(build), "-j2", "--target", *EXAMPLES],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return build


def tool(*argv: str) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def symbols(elf: Path) -> dict[str, tuple[int, int]]:
    """Name: (address, size) of the defined symbols."""
    found = {}
    for line in tool("arm-none-eabi-nm", "-S", str(elf)).splitlines():
        m = re.match(r"([0-9a-f]{8}) (?:([0-9a-f]{8}) )?[TtWwDdBbRr] (\S+)$", line)
        if m:
            found[m.group(3)] = (int(m.group(1), 16), int(m.group(2) or "0", 16))
    return found


def sections(elf: Path) -> list[tuple[str, int, int]]:
    """(name, address, size) of the sections that occupy memory on the chip."""
    found = []
    for line in tool("arm-none-eabi-readelf", "-SW", str(elf)).splitlines():
        m = re.match(
            r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S*)",
            line,
        )
        if m and "A" in m.group(4):
            found.append((m.group(1), int(m.group(2), 16), int(m.group(3), 16)))
    return found


def words_at_start_of_flash(elf: Path, count: int, scratch: Path) -> list[int]:
    image = scratch / (elf.name + ".text.bin")
    tool("arm-none-eabi-objcopy", "-O", "binary", "--only-section=.text", str(elf), str(image))
    data = image.read_bytes()[: 4 * count]
    return [int.from_bytes(data[i : i + 4], "little") for i in range(0, len(data), 4)]


def inside(address: int, size: int, region: tuple[int, int]) -> bool:
    return region[0] <= address and address + size <= region[0] + region[1]


@pytest.mark.parametrize("example", EXAMPLES)
def test_everything_lies_in_the_chip_s_memory(built: Path, example: str) -> None:
    elf = built / "examples" / example
    placed = sections(elf)
    assert placed, "no sections read"
    for name, address, size in placed:
        assert any(inside(address, size, r) for r in (FLASH, RAM, CCM)), (name, hex(address))
    assert ("FLASH", FLASH[0]) == ("FLASH", next(a for n, a, _ in placed if n == ".text"))


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_vector_table_is_where_the_core_reads_it(
    built: Path, example: str, tmp_path: Path
) -> None:
    elf = built / "examples" / example
    sym = symbols(elf)
    table, table_size = sym["tc__cm_vectors"]
    assert table == FLASH[0]
    # The board names its lines (TC_BOARD_IRQ_HANDLERS): one slot each, none to spare.
    assert table_size == 4 * (16 + IRQS)
    vectors = words_at_start_of_flash(elf, 16 + IRQS, tmp_path)
    thumb = 1
    assert vectors[0] == RAM[0] + RAM[1]  # the main stack's top: the end of SRAM
    assert vectors[1] == sym["Reset_Handler"][0] | thumb
    assert int(tool("arm-none-eabi-readelf", "-h", str(elf)).split("Entry point address:")[1]
               .split()[0], 16) == vectors[1]  # fmt: skip
    assert vectors[14] == sym["PendSV_Handler"][0] | thumb
    assert vectors[15] == sym["SysTick_Handler"][0] | thumb
    # Under ST's CMSIS names (USART2_IRQHandler ...): the board's TIM5 handler, and weak
    # defaults an application's stm32f4xx_it.c replaces.
    assert vectors[16 + TIM5_IRQ] == sym["TIM5_IRQHandler"][0] | thumb
    assert sym["TIM5_IRQHandler"][0] != sym["tc__cm_unexpected"][0]
    assert vectors[16 + USART2_IRQ] == sym["USART2_IRQHandler"][0] | thumb
    assert sym["USART2_IRQHandler"][0] == sym["tc__cm_unexpected"][0]
    # An application's handler, defined under ST's name, takes its line's slot.
    installed = sym["TIM2_IRQHandler"][0] != sym["tc__cm_unexpected"][0]
    assert vectors[16 + TIM2_IRQ] == sym["TIM2_IRQHandler"][0] | thumb
    assert installed == (example == "device_interrupt")
    # A line nobody handles stops the run with a message.
    assert vectors[16 + IRQS - 1] == sym["tc__cm_unexpected"][0] | thumb


def test_the_board_refuses_what_it_cannot_be(tmp_path: Path) -> None:
    m3 = configure(tmp_path / "m3", "-DTACET_CPU=cortex-m3", "-DTACET_BUILD_TESTS=OFF")
    assert m3.returncode != 0
    assert "the chip is a Cortex-M4F (-DTACET_CPU=cortex-m4f)" in m3.stderr
    tests = configure(tmp_path / "tests", "-DTACET_CPU=cortex-m4f", "-DTACET_BUILD_TESTS=ON")
    assert tests.returncode != 0
    assert "configure with -DTACET_BUILD_TESTS=OFF" in tests.stderr
    nowhere = configure(tmp_path / "nowhere", "-DTACET_CM_BOARD=atari", "-DTACET_CPU=cortex-m4f")
    assert nowhere.returncode != 0
    assert "TACET_CM_BOARD=atari: no such board" in nowhere.stderr
