#!/usr/bin/env python3
"""Writes the hand-made edge cases of data/cases.tsv and data/cases/ from puzzles this tool made.

    python3 scripts/data/cases.py PAIRS_FILE OUT_DIR

PAIRS_FILE holds `puzzle solution` lines (`sudoku-batch generate --output-format pairs`,
minimal unique puzzles). Every case is built from them by a fixed rule (no randomness), so
the same input gives the same bytes; each case's solution count comes from the simple
counter below (capped at 1,000), independent of the tool. Called by scripts/make-data.sh.
"""
import os
import sys

CAP = 1000


def units_of(cell):
    r, c = divmod(cell, 9)
    b = (r // 3) * 3 + c // 3
    return r, c, b


def count(puzzle, cap=CAP):
    """Solutions of an 81-character puzzle ('.' empty), up to `cap`; 0 when givens clash."""
    rows, cols, boxes = [0] * 9, [0] * 9, [0] * 9
    empty = []
    for i, ch in enumerate(puzzle):
        r, c, b = units_of(i)
        if ch == '.':
            empty.append(i)
            continue
        bit = 1 << int(ch)
        if (rows[r] | cols[c] | boxes[b]) & bit:
            return 0
        rows[r] |= bit
        cols[c] |= bit
        boxes[b] |= bit
    found = 0

    def search(todo):
        nonlocal found
        if not todo:
            found += 1
            return
        # the empty cell with the fewest candidates
        best, best_free = None, None
        for i in todo:
            r, c, b = units_of(i)
            free = [d for d in range(1, 10) if not (rows[r] | cols[c] | boxes[b]) & (1 << d)]
            if best is None or len(free) < len(best_free):
                best, best_free = i, free
                if len(free) <= 1:
                    break
        rest = [i for i in todo if i != best]
        r, c, b = units_of(best)
        for d in best_free:
            bit = 1 << d
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            search(rest)
            rows[r] &= ~bit
            cols[c] &= ~bit
            boxes[b] &= ~bit
            if found >= cap:
                return

    search(empty)
    return min(found, cap)


def put(puzzle, cell, digit):
    return puzzle[:cell] + str(digit) + puzzle[cell + 1:]


def clash(puzzle, kind):
    """The puzzle with one more given that repeats a given of its row, column or box (and only there)."""
    for cell, ch in enumerate(puzzle):
        if ch != '.':
            continue
        r, c, b = units_of(cell)
        for other, och in enumerate(puzzle):
            if och == '.' or other == cell:
                continue
            orr, oc, ob = units_of(other)
            same = {'row': orr == r, 'column': oc == c, 'box': ob == b}
            if not same[kind] or sum(same.values()) != 1:
                continue
            d = int(och)
            seen = [puzzle[j] for j in range(81) if j != other and any(
                (a == x) for a, x in zip(units_of(j), (r, c, b)))]
            if str(d) not in seen:
                return put(puzzle, cell, d)
    raise SystemExit(f'no {kind} clash found')


def wrong_digit(puzzle, solution):
    """One more given, clashing with no given, that is not the solution's: no solution."""
    for cell, ch in enumerate(puzzle):
        if ch != '.':
            continue
        r, c, b = units_of(cell)
        seen = {puzzle[j] for j in range(81) if any(a == x for a, x in zip(units_of(j), (r, c, b)))}
        for d in '123456789':
            if d != solution[cell] and d not in seen:
                return put(puzzle, cell, d)
    raise SystemExit('no wrong digit found')


def remove_givens(puzzle, keep):
    """The puzzle with its givens removed from the last one back until `keep` remain."""
    cells = list(puzzle)
    given = [i for i, ch in enumerate(cells) if ch != '.']
    for i in reversed(given[keep:]):
        cells[i] = '.'
    return ''.join(cells)


def main():
    pairs = [line.split() for line in open(sys.argv[1]) if line.strip()]
    out = sys.argv[2]
    cases = []  # (puzzle, category, case, expected)
    # Unique puzzles, as made.
    for k, (p, _) in enumerate(pairs[:6]):
        cases.append((p, 'valid', f'minimal{k + 1}', 'unique'))
    p, s = pairs[6]
    cases.append((s[:80] + '.', 'valid', 'given80', 'unique'))
    cases.append((s, 'solved', 'solved1', 'unique'))
    cases.append((pairs[7][1], 'solved', 'solved2', 'unique'))
    # Several solutions: a minimal puzzle less one given has two or more; exact counts.
    wanted = {2, 3, 4}
    for p, _ in pairs[8:]:
        if not wanted and len([c for c in cases if c[1] == 'multiple_solutions']) >= 5:
            break
        for cell, ch in enumerate(p):
            if ch == '.':
                continue
            q = put(p, cell, '.')
            n = count(q)
            if n in wanted or (not wanted and n > 4):
                wanted.discard(n)
                cases.append((q, 'multiple_solutions', f'solutions{n}', f'multiple:{n}'))
                if not wanted and n > 4:
                    wanted = set()
                break
        if len([c for c in cases if c[1] == 'multiple_solutions']) >= 5:
            break
    base = pairs[20][0]
    cases.append((remove_givens(base, 17), 'multiple_solutions', 'givens17', 'multiple:17 givens'))
    cases.append((remove_givens(base, 16), 'multiple_solutions', 'givens16', 'multiple:16 givens'))
    # Clashing givens: invalid.
    for kind in ('row', 'column', 'box'):
        cases.append((clash(pairs[21][0], kind), 'unsolvable', f'duplicate_{kind}', f'invalid:duplicate given ({kind})'))
    # No clash, no solution.
    for k in range(2):
        p, s = pairs[22 + k]
        cases.append((wrong_digit(p, s), 'unsolvable', f'no_solution{k + 1}', 'none:no solution'))

    with open(os.path.join(out, 'cases.tsv'), 'w') as f:
        f.write('# Edge cases made by scripts/data/cases.py from puzzles of `sudoku-batch generate` (see data/README.md).\n')
        f.write('# columns: puzzle<TAB>category<TAB>case<TAB>expected<TAB>solutions (counted by scripts/data/cases.py, cap 1000)<TAB>block file\n')
        for k, (p, cat, case, expected) in enumerate(cases):
            n = count(p)
            kind = expected.split(':')[0]
            assert (kind, n > 0) in {('unique', True), ('multiple', True), ('invalid', False), ('none', False)}, (p, expected, n)
            assert kind != 'unique' or n == 1, (p, n)
            assert kind != 'multiple' or n > 1, (p, n)
            f.write(f'{p}\t{cat}\t{case}\t{expected}\t{n}\tcases/{cat}/{case}.txt\n')
            os.makedirs(os.path.join(out, 'cases', cat), exist_ok=True)
            # Block layout, nine lines of nine cells; '0' for empty in every other file.
            empty = '0' if k % 2 else '.'
            with open(os.path.join(out, 'cases', cat, f'{case}.txt'), 'w') as g:
                for r in range(9):
                    g.write(p[9 * r:9 * r + 9].replace('.', empty) + '\n')
    # No givens at all: a block file only (many solutions).
    os.makedirs(os.path.join(out, 'cases', 'multiple_solutions'), exist_ok=True)
    with open(os.path.join(out, 'cases', 'multiple_solutions', 'givens0.txt'), 'w') as g:
        g.write('.........\n' * 9)


if __name__ == '__main__':
    main()
