#!/bin/bash
# A crowdlab sweep as a Slurm job array: each array task runs every N-th job of the sweep (its shard)
# and writes its own CSV; a last job that depends on the array merges them and draws the figure.
#
#   sbatch examples/slurm-sweep.sh                 # submits the array (16 shards) ...
#   sbatch --dependency=afterok:<array job id> --wrap \
#     'crowdlab sweep --merge sweep-out/shard-*.csv --csv sweep-out/merged.csv --plot sweep-out/merged.svg'
#
# A shard that was cut short (time limit, pre-emption) keeps the rows it finished; submitting the same
# array again with `--resume` (already below) runs only the jobs its CSV lacks. Every shard computes
# the same job list from the same flags, so the merged CSV equals one run on one machine, row for row.
#SBATCH --job-name=crowdlab-sweep
#SBATCH --array=1-16
#SBATCH --cpus-per-task=4
#SBATCH --time=00:30:00
#SBATCH --output=sweep-out/slurm-%A_%a.log

set -euo pipefail
mkdir -p sweep-out
shards=${SLURM_ARRAY_TASK_COUNT:-16}
crowdlab sweep \
  --scene orca-corridor --vary width=1.5:6:0.25 --set groupSize=20 \
  --series 'ORCA:method=orca;lanes=false' --series 'ORCA + lanes:method=orca;lanes=true' \
  --metric throughput_per_min:final,overlaps_total:final --window 10:70 --seeds 10 \
  --threads "${SLURM_CPUS_PER_TASK:-1}" \
  --shard "${SLURM_ARRAY_TASK_ID}/${shards}" \
  --csv "sweep-out/shard-${SLURM_ARRAY_TASK_ID}.csv" --resume
