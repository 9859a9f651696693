#!/usr/bin/env bash
# Classify one file as a Slurm array job: task I of N classifies shard I/N, and a final
# step merges the parts.
#
#   jid=$(sbatch --parsable --array=1-16 scripts/slurm/classify-array.sh INPUT OUTDIR [BINARY])
#   sbatch --dependency=afterok:$jid --export=ALL,MERGE=1 scripts/slurm/classify-array.sh INPUT OUTDIR [BINARY]
#
# Task I writes OUTDIR/rows-I.csv (the first with the CSV header, the others without, so
# that `cat OUTDIR/rows-*.csv` equals a single run's output) and OUTDIR/report-I.json; the
# merge step writes OUTDIR/report.json and OUTDIR/latency.hgrm. Runs outside Slurm too,
# with SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT set by hand.
#SBATCH --job-name=sudoku-classify
#SBATCH --cpus-per-task=16
#SBATCH --output=sudoku-classify-%A_%a.log
set -euo pipefail
input=${1:?usage: classify-array.sh INPUT OUTDIR [BINARY]}
outdir=${2:?usage: classify-array.sh INPUT OUTDIR [BINARY]}
bin=${3:-sudoku-batch}
mkdir -p "$outdir"
if [ "${MERGE:-0}" = 1 ]; then
    exec "$bin" merge "$outdir"/report-*.json -o "$outdir/report.json" \
        --histogram "$outdir/latency.hgrm"
fi
i=${SLURM_ARRAY_TASK_ID:?SLURM_ARRAY_TASK_ID is not set}
n=${SLURM_ARRAY_TASK_COUNT:?SLURM_ARRAY_TASK_COUNT is not set}
part=$(printf %05d "$i")
header=(--no-header)
[ "$i" = 1 ] && header=()
"$bin" classify "$input" --shard "$i/$n" "${header[@]}" --quiet \
    --threads "${SLURM_CPUS_PER_TASK:-1}" \
    -o "$outdir/rows-$part.csv" --report "$outdir/report-$part.json"
