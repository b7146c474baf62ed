# SPDX-License-Identifier: MIT
"""``tacet power TABLE``: check a board power table, print it or write its C header."""

import argparse
from pathlib import Path

from tacet.power.summary import print_table
from tacet.power.tables import generated_name, header, load, locate


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "power",
        help="check a board power table (power/NAME.yaml), print it or generate its C header",
        description="Check the board power table TABLE (a name in power/, e.g. lpc2148, or a "
        "path to a .yaml file) against schema/tacet-power.schema.json and the rules of "
        "tc_power_init(), and print its points with what each costs; --header writes the C "
        "header for tc_power_init() instead. Errors name the file, the line and the field.",
    )
    parser.add_argument("table", metavar="TABLE", help="a table name in power/ or a .yaml path")
    parser.add_argument(
        "--header", type=Path, metavar="OUT.h", help="write the C header here (print nothing)"
    )
    parser.add_argument(
        "--profile", metavar="NAME", help="print the figures of this profile of the table"
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    table = load(locate(args.table, Path()))
    if args.header is not None:
        args.header.parent.mkdir(parents=True, exist_ok=True)
        args.header.write_text(header(table, generated_name(table)), encoding="utf-8", newline="\n")
        return 0
    table.figures(args.profile)  # an unknown profile is an error before anything is printed
    print_table(table, args.profile)
    return 0
