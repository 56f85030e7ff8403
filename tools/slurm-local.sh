#!/usr/bin/env bash
# tools/slurm-local.sh: a single-node Slurm cluster on THIS machine, for a
# demonstration that a Snakemake workflow runs through Snakemake's Slurm
# executor. Not a production set-up: one node (this host), one partition,
# every daemon run by hand in the background (no systemd), as root.
#
#   tools/slurm-local.sh start    install what is missing (apt: slurm-wlm,
#                                 slurmdbd, munge, mariadb-server; pip: snakemake
#                                 and its Slurm executor plugin in a venv), write
#                                 the configs, start munged, mariadbd, slurmdbd,
#                                 slurmctld, slurmd, and wait until the node is idle
#   tools/slurm-local.sh stop     stop those daemons (what is installed stays)
#   tools/slurm-local.sh status   daemons, sinfo, squeue, recent sacct
#
# Accounting (slurmdbd + a local MariaDB) is set up because the executor plugin
# asks `sacct` for job states by default. SLURM_LOCAL_ACCOUNTING=0 skips it;
# then Snakemake needs `--slurm-status-command squeue` (MinJobAge is set to 600 s
# so that squeue still knows finished jobs).
#
# Afterwards, e.g.:
#   /opt/snakemake-venv/bin/snakemake --executor slurm --jobs 2 \
#       --default-resources slurm_partition=local slurm_account=demo
#
# Everything is idempotent: `start` twice installs, writes and starts nothing new.
set -euo pipefail

PARTITION=${SLURM_LOCAL_PARTITION:-local}
ACCOUNT=${SLURM_LOCAL_ACCOUNT:-demo}
CLUSTER=${SLURM_LOCAL_CLUSTER:-localcluster}
ACCOUNTING=${SLURM_LOCAL_ACCOUNTING:-1}
VENV=${SNAKEMAKE_VENV:-/opt/snakemake-venv}
SNAKEMAKE_VERSION=${SNAKEMAKE_VERSION:-9.27.1}
PLUGIN_VERSION=${SNAKEMAKE_SLURM_PLUGIN_VERSION:-2.8.0}
PYTHON=${PYTHON:-python3}

HOST=$(hostname -s)
CONF=/etc/slurm/slurm.conf
DBDCONF=/etc/slurm/slurmdbd.conf
LOGDIR=/var/log/slurm

log() { echo "[slurm-local] $*" >&2; }
die() { log "error: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root"

# ---------------------------------------------------------------- helpers
pid_alive() { # pidfile -> 0 if the process in it runs
    [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

wait_for() { # seconds description command...
    local secs=$1 what=$2; shift 2
    local i
    for ((i = 0; i < secs * 4; i++)); do
        if "$@" >/dev/null 2>&1; then return 0; fi
        sleep 0.25
    done
    die "timed out after ${secs}s waiting for $what"
}

stop_pidfile() { # name pidfile
    local name=$1 pf=$2 pid i
    if pid_alive "$pf"; then
        pid=$(cat "$pf")
        log "stopping $name (pid $pid)"
        kill "$pid"
        for ((i = 0; i < 120; i++)); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.25
        done
        kill -0 "$pid" 2>/dev/null && { log "$name did not stop, SIGKILL"; kill -9 "$pid"; }
    fi
    rm -f "$pf"
}

write_if_changed() { # path mode owner  (content on stdin); echo "changed" if so
    local path=$1 mode=$2 owner=$3 tmp
    tmp=$(mktemp)
    cat >"$tmp"
    if [ -f "$path" ] && cmp -s "$tmp" "$path"; then
        rm -f "$tmp"
    else
        install -m "$mode" -o "${owner%:*}" -g "${owner#*:}" "$tmp" "$path"
        rm -f "$tmp"
        log "wrote $path"
        echo changed
    fi
}

# ---------------------------------------------------------------- install
install_packages() {
    local pkgs=(slurm-wlm munge) missing=() p
    [ "$ACCOUNTING" = 1 ] && pkgs+=(slurmdbd mariadb-server)
    for p in "${pkgs[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        log "apt-get install ${missing[*]}"
        apt-get update -qq
        # --no-install-recommends: no extra services; policy-rc.d-free, nothing
        # gets started since there is no systemd here.
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
    if ! "$VENV/bin/python" -c 'import snakemake, snakemake_executor_plugin_slurm' 2>/dev/null; then
        # A venv of its own: snakemake wants docutils>=0.20, other tools in the
        # global Python (awscli) want <=0.19.
        log "creating $VENV with snakemake $SNAKEMAKE_VERSION + slurm plugin $PLUGIN_VERSION"
        "$PYTHON" -m venv "$VENV"
        "$VENV/bin/pip" install -q "snakemake==$SNAKEMAKE_VERSION" \
            "snakemake-executor-plugin-slurm==$PLUGIN_VERSION"
    fi
}

# ---------------------------------------------------------------- configs
write_configs() { # echoes "changed" if slurm.conf / slurmdbd.conf changed
    local mem_mb real_mb acct
    mem_mb=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
    real_mb=$((mem_mb - 2048)) # leave ~2 GiB to the OS and the daemons
    if [ "$ACCOUNTING" = 1 ]; then
        acct="AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=30"
    else
        acct="AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none"
    fi
    mkdir -p /etc/slurm "$LOGDIR" /var/lib/slurm/slurmctld /var/lib/slurm/slurmd
    chown slurm:slurm "$LOGDIR" /var/lib/slurm/slurmctld
    write_if_changed "$CONF" 644 root:root <<EOF
# Written by tools/slurm-local.sh: single-node demo cluster, node = this host.
ClusterName=$CLUSTER
SlurmctldHost=$HOST
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmdSpoolDir=/var/lib/slurm/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$LOGDIR/slurmctld.log
SlurmdLogFile=$LOGDIR/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
MpiDefault=none
# no cgroups: plain process tracking, no task confinement
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
# keep finished jobs visible to squeue/scontrol for 10 minutes
MinJobAge=600
JobCompType=jobcomp/none
$acct
NodeName=$HOST CPUs=$(nproc) RealMemory=$real_mb State=UNKNOWN
PartitionName=$PARTITION Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
    if [ "$ACCOUNTING" = 1 ]; then
        # slurmdbd talks to MariaDB over the local socket as OS user slurm
        # (unix_socket authentication): no password anywhere.
        write_if_changed "$DBDCONF" 600 slurm:slurm <<EOF
# Written by tools/slurm-local.sh
AuthType=auth/munge
DbdHost=localhost
SlurmUser=slurm
DebugLevel=info
LogFile=$LOGDIR/slurmdbd.log
PidFile=/run/slurmdbd.pid
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageUser=slurm
StorageLoc=slurm_acct_db
EOF
    fi
}

# ---------------------------------------------------------------- daemons
start_munge() {
    if pid_alive /run/munge/munged.pid; then return; fi
    [ -s /etc/munge/munge.key ] || { log "creating munge key"; mungekey --create --force; }
    chown munge:munge /etc/munge/munge.key && chmod 600 /etc/munge/munge.key
    install -d -o munge -g munge -m 755 /run/munge
    log "starting munged"
    runuser -u munge -- /usr/sbin/munged --force
    wait_for 15 "munge" sh -c 'munge -n | unmunge'
}

mysql_up() { mariadb-admin --protocol=socket ping >/dev/null 2>&1; }

start_mariadb() {
    if mysql_up; then return; fi
    install -d -o mysql -g mysql -m 755 /run/mysqld
    [ -d /var/lib/mysql/mysql ] || mariadb-install-db --user=mysql >/dev/null
    log "starting mariadbd"
    # setsid + nohup: detached from this shell, survives its end
    setsid nohup /usr/sbin/mariadbd --user=mysql --pid-file=/run/mysqld/mysqld.pid \
        --innodb-lock-wait-timeout=900 >>/var/log/mysql-slurm-local.log 2>&1 </dev/null &
    wait_for 60 "mariadbd" mysql_up
    mariadb --protocol=socket -e "
        CREATE DATABASE IF NOT EXISTS slurm_acct_db;
        CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED VIA unix_socket;
        GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';"
}

start_slurmdbd() {
    if pid_alive /run/slurmdbd.pid; then return; fi
    log "starting slurmdbd"
    /usr/sbin/slurmdbd
    wait_for 60 "slurmdbd" sacctmgr -n list cluster
}

start_slurmctld() {
    if pid_alive /run/slurmctld.pid; then return; fi
    log "starting slurmctld"
    /usr/sbin/slurmctld
    wait_for 60 "slurmctld" scontrol ping
}

start_slurmd() {
    if pid_alive /run/slurmd.pid; then return; fi
    log "starting slurmd"
    /usr/sbin/slurmd
}

node_state() { sinfo -h -n "$HOST" -o %t 2>/dev/null | head -n1; }
node_idle() { case "$(node_state)" in idle | mix | alloc) return 0 ;; *) return 1 ;; esac; }

setup_accounts() {
    # the cluster registers itself when slurmctld first connects to slurmdbd
    wait_for 60 "cluster $CLUSTER in slurmdbd" sh -c "sacctmgr -n -P list cluster format=cluster | grep -qx '$CLUSTER'"
    if ! sacctmgr -n -P list account format=account | grep -qx "$ACCOUNT"; then
        sacctmgr -i add account "$ACCOUNT" cluster="$CLUSTER" description="local demo" >/dev/null
    fi
    if ! sacctmgr -n -P list assoc user=root account="$ACCOUNT" format=user | grep -qx root; then
        sacctmgr -i add user root account="$ACCOUNT" defaultaccount="$ACCOUNT" >/dev/null
    fi
}

cmd_start() {
    local t0=$SECONDS changed
    install_packages
    changed=$(write_configs)
    if [ -n "$changed" ] && { pid_alive /run/slurmctld.pid || pid_alive /run/slurmd.pid || pid_alive /run/slurmdbd.pid; }; then
        log "configuration changed: restarting the Slurm daemons"
        stop_slurm
    fi
    start_munge
    if [ "$ACCOUNTING" = 1 ]; then
        start_mariadb
        start_slurmdbd
    fi
    start_slurmctld
    start_slurmd
    [ "$ACCOUNTING" = 1 ] && setup_accounts
    # a node left DOWN/DRAIN by an earlier run: bring it back
    case "$(node_state)" in
    down* | drain* | drng* | fail*) scontrol update nodename="$HOST" state=resume || true ;;
    esac
    wait_for 120 "node $HOST to become idle" node_idle
    if [ "$ACCOUNTING" = 1 ]; then
        log "up in $((SECONDS - t0))s: partition '$PARTITION', account '$ACCOUNT', sacct works"
    else
        log "up in $((SECONDS - t0))s: partition '$PARTITION', no accounting: use --slurm-status-command squeue"
    fi
    sinfo
}

stop_slurm() {
    stop_pidfile slurmd /run/slurmd.pid
    stop_pidfile slurmctld /run/slurmctld.pid
    stop_pidfile slurmdbd /run/slurmdbd.pid
}

cmd_stop() {
    stop_slurm
    if mysql_up; then
        log "stopping mariadbd"
        mariadb-admin --protocol=socket shutdown || true
    fi
    stop_pidfile munged /run/munge/munged.pid
}

cmd_status() {
    local name pf
    for name in munged:/run/munge/munged.pid mariadbd:/run/mysqld/mysqld.pid \
        slurmdbd:/run/slurmdbd.pid slurmctld:/run/slurmctld.pid slurmd:/run/slurmd.pid; do
        pf=${name#*:}
        if pid_alive "$pf"; then
            printf '%-10s running (pid %s)\n' "${name%%:*}" "$(cat "$pf")"
        else
            printf '%-10s stopped\n' "${name%%:*}"
        fi
    done
    if pid_alive /run/slurmctld.pid; then
        echo; sinfo
        echo; squeue
        if pid_alive /run/slurmdbd.pid; then
            echo; sacct -a -X --starttime now-1days --format=JobID,JobName%40,Partition,Account,State,Elapsed,ExitCode | tail -n 20
        fi
    else
        return 3
    fi
}

case "${1:-}" in
start) cmd_start ;;
stop) cmd_stop ;;
status) cmd_status ;;
*)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
