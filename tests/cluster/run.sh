#!/bin/bash
# Runs the shipped cluster scripts for real and checks their result: a one-node Slurm cluster
# (controller and node on localhost, Debian's slurm-wlm and munge) runs
# tools/cluster/study.sbatch as a job array, GNU parallel runs tools/cluster/study-parallel.sh,
# and each merged study must equal the unsharded study byte for byte apart from `timing`.
#
#   bash tests/cluster/run.sh [path/to/orrery]      # needs root, slurm-wlm, munge, parallel, jq
#
# Exit 0 when both agree, 1 otherwise. The daemons it starts are stopped on exit.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
orrery=$(realpath "${1:-${CARGO_TARGET_DIR:-$repo/target}/release/orrery}")
[ -x "$orrery" ] || { echo "error: no orrery binary at $orrery (build with cargo build --release)" >&2; exit 1; }
for tool in slurmctld slurmd sbatch munged parallel jq; do
    command -v "$tool" >/dev/null || { echo "error: $tool is not installed" >&2; exit 1; }
done

# A small study: 4 slices of 24 two-player games with mixed bots (a few seconds on one core).
export ORRERY="$orrery" GAMES=${CLUSTER_GAMES:-24} PLAYERS=2 BOTS=greedy,random SEED=11
slices=4
work=$(mktemp -d /tmp/orrery-cluster.XXXXXX)
cleanup() {
    local pid
    if [ -n "${SLURM_CONF:-}" ]; then scontrol shutdown >/dev/null 2>&1 || true; fi
    for f in "$work/slurmctld.pid" "$work/slurmd.pid"; do
        [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
    done
    pkill -f -- "--socket=$work/" 2>/dev/null || true
    for _ in $(seq 50); do # wait for the daemons to leave before removing their files
        pid=$(pgrep -f -- "$work" || true)
        [ -z "$pid" ] && break
        sleep 0.2
    done
    rm -rf "$work" 2>/dev/null || true
}
trap cleanup EXIT

same_study() { # $1 $2: equal apart from timing
    if ! diff <(jq -S 'del(.timing)' "$1") <(jq -S 'del(.timing)' "$2") >/dev/null; then
        echo "error: $1 differs from $2:" >&2
        diff <(jq -S 'del(.timing)' "$1") <(jq -S 'del(.timing)' "$2") | head -20 >&2
        return 1
    fi
}

cd "$work"
"$orrery" simulate --games "$GAMES" --players "$PLAYERS" --bots "$BOTS" --seed "$SEED" \
    --jobs 1 --out whole.json >/dev/null

# GNU parallel on this machine.
SLICES=$slices SHARDS=pshards OUT=parallel.json bash "$repo/tools/cluster/study-parallel.sh" >/dev/null
same_study whole.json parallel.json
echo "GNU parallel: $slices shards merged, equal to the unsharded study"

# munge: its own key, socket and state under $work.
mkdir -p munge/etc munge/run munge/lib munge/log
dd if=/dev/urandom of=munge/etc/munge.key bs=1024 count=1 status=none
chmod 700 munge/etc munge/lib munge/log; chmod 755 munge munge/run; chmod 400 munge/etc/munge.key
chown -R munge:munge munge
chmod 755 "$work"
socket="$work/munge/run/munge.socket"
runuser -u munge -- munged --key-file="$work/munge/etc/munge.key" --socket="$socket" \
    --pid-file="$work/munged.pid" --seed-file="$work/munge/lib/seed" \
    --log-file="$work/munge/log/munged.log"

# Slurm: controller and one node on localhost, configuration under $work.
host=$(hostname -s)
cpus=$(nproc)
mkdir -p spool state log
cat > slurm.conf <<CONF
ClusterName=orrery-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldPort=$((20000 + RANDOM % 20000))
SlurmdPort=$((40000 + RANDOM % 20000))
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
SlurmdTimeout=60
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
    state=$(sinfo -h -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 1
done
[ "$state" = idle ] || { echo "error: the Slurm node did not come up (state: ${state:-none})" >&2; tail -5 log/*.log >&2; exit 1; }

# The shipped job script, its #SBATCH lines overridden for this small machine.
SHARDS=sshards sbatch --wait --quiet --array=1-$slices --cpus-per-task=1 --time=00:10:00 \
    --export=ALL --chdir="$work" --output="$work/log/task-%a.log" "$repo/tools/cluster/study.sbatch"
n=$(ls sshards/*.json | wc -l)
[ "$n" -eq "$slices" ] || { echo "error: the job array wrote $n shards of $slices" >&2; cat log/task-*.log >&2; exit 1; }
"$orrery" merge sshards/*.json --out slurm.json >/dev/null
same_study whole.json slurm.json
echo "Slurm job array: $slices tasks, shards merged, equal to the unsharded study"
