#!/usr/bin/env python3
"""Writes data/parquet/ from the project's generated sets, with pyarrow (the writer most users'
Parquet files come from), to test the Parquet input.

    python3 scripts/data/parquet.py DATA_DIR

Needs pyarrow 26.0.1 (`pip install pyarrow==26.0.1`): another version writes other bytes
(its name is in the footer). Called by scripts/make-data.sh.
"""
import sys

import pyarrow as pa
import pyarrow.parquet as pq

data = sys.argv[1]

# Strings with numbers beside them: graded.csv's first 2,000 rows, snappy, 4 groups of 500.
rows = [line.rstrip('\r\n').split(',') for line in open(f'{data}/graded.csv', newline='')][1:2001]
table = pa.table({
    'puzzle': pa.array([r[0] for r in rows], pa.string()),
    'solution': pa.array([r[1] for r in rows], pa.string()),
    'clues': pa.array([int(r[2]) for r in rows], pa.int32()),
    'rating': pa.array([float(r[4]) for r in rows], pa.float64()),
})
pq.write_table(table, f'{data}/parquet/graded-first2000.snappy.parquet',
               compression='snappy', row_group_size=500)

# Lists of digits: quizzes.csv's first 1,000 rows; row 10 (from 0) null, row 20 an
# empty list, row 30 cut to 80 cells; zstd, groups of up to 300.
lines = open(f'{data}/quizzes.csv').read().split('\n')[1:1001]
ids, questions, answers = [], [], []
for i, line in enumerate(lines):
    quiz, solution = line.split(',')
    ids.append(i)
    if i == 10:
        questions.append(None)
    elif i == 20:
        questions.append([])
    elif i == 30:
        questions.append([int(c) for c in quiz[:80]])
    else:
        questions.append([int(c) for c in quiz])
    answers.append(solution)
table = pa.table({
    'id': pa.array(ids, pa.int64()),
    'question': pa.array(questions, pa.list_(pa.int8())),
    'answer': pa.array(answers, pa.string()),
})
pq.write_table(table, f'{data}/parquet/quizzes-first1000-lists.zstd.parquet',
               compression='zstd', row_group_size=300)

# Fixed-size binary, no solutions: minimal.txt's first 500 lines, gzip, one group.
grids = [line.strip().replace('.', '0').encode() for line in open(f'{data}/minimal.txt')][:500]
table = pa.table({'grid': pa.array(grids, pa.binary(81))})
pq.write_table(table, f'{data}/parquet/minimal-first500-binary.gzip.parquet',
               compression='gzip', row_group_size=500)
