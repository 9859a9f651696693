#!/usr/bin/env python3
"""How well `sudoku-batch grade` ranks puzzles: mean rating per Sudoku Exchange bucket
(easy, hard, diabolical) and, on the diabolical file, which carries each puzzle's Sukaku
Explainer (SE) rating, the Spearman rank correlation between our rating and SE's.

Usage: scripts/grade-quality.py [BINARY] [DIABOLICAL_LIMIT]
"""
import csv, io, subprocess, sys

binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/sudoku-batch"
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 0


def grade(path):
    out = subprocess.run([binary, "grade", path, "--quiet"], check=True,
                         capture_output=True).stdout.decode()
    return list(csv.DictReader(io.StringIO(out)))


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb)


print("| file | puzzles | mean rating | easy | medium | hard | expert | extreme |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
diabolical = "../shared/data/sudoku-exchange-diabolical.txt"
if limit:
    lines = open(diabolical).read().splitlines()[:limit]
    diabolical = f"/tmp/diabolical-{limit}.txt"
    open(diabolical, "w").write("\n".join(lines) + "\n")
for path in ["../shared/data/sudoku-exchange-easy-with-solutions.txt",
             "../shared/data/sudoku-exchange-hard-with-solutions.txt", diabolical]:
    rows = grade(path)
    ratings = [float(r["rating"]) for r in rows]
    levels = [sum(r["difficulty"] == l for r in rows)
              for l in ["easy", "medium", "hard", "expert", "extreme"]]
    name = path.split("/")[-1]
    print(f"| {name} | {len(rows)} | {sum(ratings) / len(rows):.2f} | "
          + " | ".join(str(n) for n in levels) + " |")
se = [float(line.split()[2]) for line in open(diabolical) if line.strip()]
ours = [float(r["rating"]) for r in grade(diabolical)]
print()
print(f"Spearman rho, our rating vs SE rating, {len(se)} diabolical puzzles: "
      f"{spearman(ours, se):.3f}")
