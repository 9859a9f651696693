#!/usr/bin/env python3
"""Turns game IDs printed by Simon Tatham's `solo` (`sgt-solo --generate N PARAMS`,
Debian package sgt-puzzles) into one puzzle per line in sudoku-batch's default symbols
(1-9, then A-P; `.` empty).

A game ID is `CxR[x...]:DESC`: C by R boxes; in DESC a letter a-z is a run of 1-26
empty cells, a number is a cell's value, and `_` separates two numbers in a row.

Usage: sgt-solo --generate 200 4x4di | scripts/variants/solo-to-lines.py > out.txt
"""

import re
import sys

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"


def cells(desc):
    out = []
    for token in re.findall(r"[a-z]|\d+|_", desc):
        if token == "_":
            continue
        if token.isdigit():
            out.append(SYMBOLS[int(token) - 1])
        else:
            out.extend("." * (ord(token) - ord("a") + 1))
    return "".join(out)


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        params, desc = line.split(":", 1)
        c, r = re.match(r"(\d+)x(\d+)", params).groups()
        side = int(c) * int(r)
        grid = cells(desc)
        if len(grid) != side * side:
            sys.exit(f"{line[:40]}...: {len(grid)} cells, expected {side * side}")
        print(grid)


if __name__ == "__main__":
    main()
