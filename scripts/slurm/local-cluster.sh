#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for trying and testing the array job.
#
#   local-cluster.sh start    install munge and slurm-wlm if missing, write the configuration,
#                             start munged, slurmctld and slurmd, wait until the node is idle
#   local-cluster.sh stop     stop the three daemons (configuration and state are kept)
#   local-cluster.sh status   print the daemons and the node state; exit 0 only when it is up
#
# Needs root and Debian (apt-get). Every step checks what is already there, so `start` can be
# run again at any time. The daemons are started directly (no systemd): munged as the munge
# user, slurmctld and slurmd as root, with ProctrackType=proctrack/linuxproc and
# TaskPlugin=task/none so that no cgroup setup is needed. The node is this machine's short
# hostname with all its CPUs, in one partition named "local".
#
# The configuration goes to /etc/slurm/slurm.conf, marked as written by this script; a
# slurm.conf written by anyone else is never overwritten (start refuses instead).
set -euo pipefail

CONF=/etc/slurm/slurm.conf
MARK="# written by nqueens scripts/slurm/local-cluster.sh"
STATE=/var/spool/slurmctld
SPOOL=/var/spool/slurmd
LOGS=/var/log/slurm
RUN=/run/slurm
NODE=$(hostname -s)

die() { echo "local-cluster.sh: $*" >&2; exit 1; }
say() { echo "local-cluster.sh: $*" >&2; }

need_root() { [ "$(id -u)" = 0 ] || die "must run as root"; }

install_packages() {
    local missing=()
    command -v munged >/dev/null || missing+=(munge)
    command -v slurmctld >/dev/null || missing+=(slurm-wlm)
    command -v sbatch >/dev/null || missing+=(slurm-client)
    [ ${#missing[@]} = 0 ] && return
    say "installing ${missing[*]}"
    command -v apt-get >/dev/null || die "apt-get not found: install ${missing[*]} yourself"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

start_munge() {
    install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
    install -d -o munge -g munge -m 0755 /run/munge
    if [ ! -s /etc/munge/munge.key ]; then
        say "creating the munge key"
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
    fi
    chown munge:munge /etc/munge/munge.key
    chmod 0400 /etc/munge/munge.key
    if pid_alive /run/munge/munged.pid; then return; fi
    runuser -u munge -- /usr/sbin/munged
    for _ in $(seq 50); do munge -n </dev/null | unmunge >/dev/null 2>&1 && return; sleep 0.1; done
    die "munged does not answer (see /var/log/munge/munged.log)"
}

write_config() {
    if [ -f "$CONF" ] && ! grep -qF "$MARK" "$CONF"; then
        die "$CONF exists and was not written by this script; refusing to overwrite it"
    fi
    install -d -m 0755 /etc/slurm "$STATE" "$SPOOL" "$LOGS" "$RUN"
    local cpus
    cpus=$(nproc)
    local new
    new=$(cat <<CONF
$MARK
ClusterName=nqueens-local
SlurmctldHost=$NODE
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobRequeue=1
StateSaveLocation=$STATE
SlurmdSpoolDir=$SPOOL
SlurmctldPidFile=$RUN/slurmctld.pid
SlurmdPidFile=$RUN/slurmd.pid
SlurmctldLogFile=$LOGS/slurmctld.log
SlurmdLogFile=$LOGS/slurmd.log
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
NodeName=$NODE CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
CONF
)
    if [ ! -f "$CONF" ] || [ "$(cat "$CONF")" != "$new" ]; then
        printf '%s\n' "$new" >"$CONF"
        # A changed configuration needs the daemons restarted.
        stop_daemons
    fi
}

node_state() { sinfo -h -n "$NODE" -o %T 2>/dev/null | head -n1; }

start_slurm() {
    pid_alive "$RUN/slurmctld.pid" || /usr/sbin/slurmctld
    for _ in $(seq 100); do scontrol ping 2>/dev/null | grep -q UP && break; sleep 0.2; done
    scontrol ping 2>/dev/null | grep -q UP || die "slurmctld does not answer (see $LOGS/slurmctld.log)"
    pid_alive "$RUN/slurmd.pid" || /usr/sbin/slurmd
    local state=""
    for _ in $(seq 150); do
        state=$(node_state)
        case "$state" in
            idle*|mixed*|allocated*) return ;;
            down*|drain*) scontrol update nodename="$NODE" state=resume >/dev/null 2>&1 || true ;;
        esac
        sleep 0.2
    done
    die "node $NODE is '$state', not idle (see $LOGS/slurmd.log)"
}

stop_pid() {
    local file=$1
    pid_alive "$file" || return 0
    local pid
    pid=$(cat "$file")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
}

stop_daemons() {
    stop_pid "$RUN/slurmd.pid"
    stop_pid "$RUN/slurmctld.pid"
}

status() {
    local up=0
    for d in /run/munge/munged.pid "$RUN/slurmctld.pid" "$RUN/slurmd.pid"; do
        if pid_alive "$d"; then echo "$(basename "$d" .pid): running (pid $(cat "$d"))"
        else echo "$(basename "$d" .pid): stopped"; up=1; fi
    done
    if [ "$up" = 0 ]; then
        echo "node $NODE: $(node_state)"
        case "$(node_state)" in idle*|mixed*|allocated*) ;; *) up=1 ;; esac
    fi
    return "$up"
}

case "${1:-}" in
    start)
        need_root
        install_packages
        write_config
        start_munge
        start_slurm
        say "up: node $NODE, $(nproc) CPUs, partition local"
        ;;
    stop)
        need_root
        stop_daemons
        stop_pid /run/munge/munged.pid
        say "stopped"
        ;;
    status) status ;;
    *) echo "usage: local-cluster.sh start|stop|status" >&2; exit 2 ;;
esac
