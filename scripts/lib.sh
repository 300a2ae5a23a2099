# Shared helpers for scripts/run and scripts/test. Sourced, not executed.
# Everything a fresh Debian machine needs is installed from here.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
warn() { printf '\033[1;31m==> %s\033[0m\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root for: $*"; return 1; fi
}

# Debian packages: Redis for the broker/cache in tests, Chromium for browser tests.
ensure_system_packages() {
  local missing=()
  command -v redis-server >/dev/null || missing+=(redis-server)
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  command -v msgfmt >/dev/null || missing+=(gettext)  # compilemessages, and the translation test
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" fonts-dejavu-core >/dev/null
  fi
}

# The requirements file $1 and those it pulls in with "-r", one a line, relative to ROOT.
requirement_files() {
  local inc
  echo "$1"
  sed -n 's/^-r[[:space:]]*//p' "$ROOT/$1" | while read -r inc; do requirement_files "$(dirname "$1")/$inc"; done
}

# A virtual environment with the pinned requirements; reinstalls only when they change. The stamp of a file
# covers the files it includes: after scripts/test installed test.txt, scripts/run installs nothing for base.txt.
ensure_venv() {
  local req="$1" stamp name
  [ -x "$PY" ] || python3 -m venv "$VENV"
  for stamp in "$VENV"/.installed-*; do
    name="requirements/${stamp##*/.installed-}.txt"
    if [ -f "$stamp" ] && [ -f "$ROOT/$name" ] && [[ " $(requirement_files "$name" | tr '\n' ' ') " == *" $req "* ]] \
        && [ -z "$(find "$ROOT/requirements" -newer "$stamp" -name '*.txt')" ]; then
      return 0
    fi
  done
  log "installing Python packages from $req"
  "$PY" -m pip install -q --upgrade pip >/dev/null
  "$PY" -m pip install -q -r "$ROOT/$req"
  touch "$VENV/.installed-$(basename "$req" .txt)"
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# ---------------------------------------------------------------------------------------------------------------
# A run and everything it starts.
#
# run_begin makes the run's own folder RUN_DIR (its logs, the PostgreSQL cluster, and TMPDIR for all it starts),
# exports RUGBY_RUN_ID, and traps EXIT, INT, TERM and HUP. Each server is started with start_child (in a session
# of its own, so that it and its children are stopped together and a Ctrl+C reaches only this script) or registers
# its own stop command in STOPS. When the script ends — passed, failed, Ctrl+C, SIGTERM — run_end stops them in
# reverse order (SIGTERM, STOP_TIMEOUT seconds, then SIGKILL), ends anything else still carrying the run's id or
# naming its folder (a Celery worker or a browser a test started in a session of its own), removes the folder —
# keeping the logs, and saying where, when the run failed — and reports what it could not stop.

RUN_DIR="" RUN_ID="" INTERRUPTED="" HURRY=""
STOP_TIMEOUT="${STOP_TIMEOUT:-60}"  # whole seconds
[[ "$STOP_TIMEOUT" =~ ^[0-9]+$ ]] || STOP_TIMEOUT=60
STOPS=()        # commands that stop what was started, in start order
STOP_FAILED=()  # what could not be stopped or removed
REAPED=" "      # children already waited for

run_begin() {
  RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/rugby-$1.XXXXXX")"
  chmod 711 "$RUN_DIR"  # the postgres user reaches its cluster inside
  mkdir "$RUN_DIR/tmp"
  RUN_ID="${RUN_DIR##*/}.$$.$(date +%s%N)"
  export RUGBY_RUN_ID="$RUN_ID" TMPDIR="$RUN_DIR/tmp"
  trap run_end EXIT
  trap 'run_interrupted INT 130' INT
  trap 'run_interrupted TERM 143' TERM
  trap 'run_interrupted HUP 129' HUP
}

run_interrupted() {
  INTERRUPTED=$1
  echo >&2
  log "SIG$1: stopping what this run started"
  exit "$2"
}

# start_child NAME LOG COMMAND...: COMMAND in the background, in a session of its own; its output goes to the file
# LOG in RUN_DIR, or with LOG "-" to this terminal (and it reads this terminal). Sets CHILD_PID: in a script (no
# job control) setsid runs COMMAND in place, so that is COMMAND's pid, and the id of its process group.
start_child() {
  local name=$1 out=$2
  shift 2
  if [ "$out" = - ]; then setsid "$@" <&0 & else setsid "$@" >"$RUN_DIR/$out" 2>&1 </dev/null & fi
  CHILD_PID=$!
  STOPS+=("$(printf 'stop_child %q %q' "$name" "$CHILD_PID")")
}

# run_child NAME COMMAND...: start_child on this terminal and wait for it; returns its exit status. A signal to
# this script ends the wait at once (run_end then stops the child).
run_child() {
  local name=$1 status=0
  shift
  start_child "$name" - "$@"
  wait "$CHILD_PID" || status=$?
  REAPED+="$CHILD_PID "
  return "$status"
}

# proc_stat PID: P_STATE and P_PGRP of process PID, from /proc (no fork); false if there is no such process.
proc_stat() {
  local line fields
  read -r line 2>/dev/null <"/proc/$1/stat" || return 1
  fields=(${line##*) })  # after the command name, which may hold spaces
  P_STATE=${fields[0]} P_PGRP=${fields[2]}
}
# alive PID: the process exists and is not a zombie.
alive() { proc_stat "$1" && [ "$P_STATE" != Z ]; }
gone() { ! alive "$1"; }
# The live processes of process group $1, one a line.
group_pids() {
  local f
  for f in /proc/[0-9]*; do
    if proc_stat "${f#/proc/}" && [ "$P_PGRP" = "$1" ] && [ "$P_STATE" != Z ]; then echo "${f#/proc/}"; fi
  done
}
group_empty() { [ -z "$(group_pids "$1")" ]; }
# describe PID...: each process's id and command line.
describe() {
  local pid
  for pid; do printf '    %s %s\n' "$pid" "$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-150)"; done
}

# within [-k] SECONDS COMMAND...: run COMMAND every 0.1 s until it succeeds; false after SECONDS. A second Ctrl+C
# (HURRY) cuts the wait to half a second, but not with -k: the wait for a SIGKILL to be done.
within() {
  local patient=1 tenths
  if [ "$1" = -k ]; then patient="" && shift; fi
  tenths=$(($1 * 10))
  shift
  until "$@"; do
    if [ -n "$patient" ] && [ -n "$HURRY" ] && [ "$tenths" -gt 5 ]; then tenths=5; fi
    if [ "$tenths" -le 0 ]; then return 1; fi
    tenths=$((tenths - 1))
    sleep 0.1
  done
}

# stop_child NAME PID: SIGTERM to PID, SIGKILL to its process group after STOP_TIMEOUT seconds; then the rest of
# the group (its children) gets a moment, SIGTERM, then SIGKILL. Records a failure if anything is left.
stop_child() {
  local name=$1 pid=$2
  if [[ "$REAPED" != *" $pid "* ]]; then
    if alive "$pid"; then
      kill -TERM "$pid" 2>/dev/null
      if ! within 3 gone "$pid"; then
        [ -n "$HURRY" ] || log "waiting up to ${STOP_TIMEOUT}s for $name to stop (Ctrl+C again: kill it now)"
        if ! within "$STOP_TIMEOUT" gone "$pid"; then
          warn "$name (pid $pid) did not stop: killing it"
          kill -KILL -- "-$pid" 2>/dev/null
          within -k 1 gone "$pid"
        fi
      fi
    fi
    if gone "$pid"; then
      wait "$pid" 2>/dev/null
      REAPED+="$pid "
    fi
  fi
  if ! group_empty "$pid"; then
    within 2 group_empty "$pid" || { kill -TERM -- "-$pid" 2>/dev/null; within 5 group_empty "$pid"; } \
      || { kill -KILL -- "-$pid" 2>/dev/null; within -k 1 group_empty "$pid"; }
  fi
  if alive "$pid" || ! group_empty "$pid"; then
    STOP_FAILED+=("$name: processes $(group_pids "$pid" | tr '\n' ' ')are still running")
    return 1
  fi
}

# The processes, other than this shell, that carry this run's id in their environment or name its folder on their
# command line: whatever the run's children started outside their own process group. Sets LEFTOVERS.
find_leftovers() {
  local procs=(/proc/[0-9]*) pid  # listed before anything below is forked
  LEFTOVERS=()
  while read -r pid; do
    [ "$pid" != "$$" ] && alive "$pid" && LEFTOVERS+=("$pid")
  done < <({ grep -lzxF "RUGBY_RUN_ID=$RUN_ID" "${procs[@]/%//environ}"
             grep -lzF -e "$RUN_DIR/" "${procs[@]/%//cmdline}"; } 2>/dev/null | cut -d/ -f3 | sort -un)
}
no_leftovers() { find_leftovers; [ ${#LEFTOVERS[@]} -eq 0 ]; }

stop_leftovers() {
  no_leftovers && return 0
  within 2 no_leftovers && return 0  # they may be ending by themselves (a browser's driver after pytest)
  warn "still running after the run's own processes stopped, stopping them:"
  describe "${LEFTOVERS[@]}" >&2
  kill -TERM "${LEFTOVERS[@]}" 2>/dev/null
  within 5 no_leftovers && return 0
  kill -KILL "${LEFTOVERS[@]}" 2>/dev/null
  within -k 1 no_leftovers && return 0
  STOP_FAILED+=("processes of this run: ${LEFTOVERS[*]}")
}

run_end() {
  local status=$? i
  set +e
  trap 'HURRY=1' INT TERM HUP
  for ((i = ${#STOPS[@]} - 1; i >= 0; i--)); do eval "${STOPS[i]}"; done
  if [ -n "$RUN_DIR" ]; then
    stop_leftovers
    if [ ${#STOP_FAILED[@]} -eq 0 ]; then
      # The cluster and the temporary files always go; the logs stay when the run failed by itself.
      rm -rf ${PG_DATA:+"$PG_DATA"} "$RUN_DIR/tmp"
      if [ "$status" != 0 ] && [ -z "$INTERRUPTED" ]; then
        rmdir "$RUN_DIR" 2>/dev/null || log "this run's logs: $RUN_DIR/"
      else
        rm -rf "$RUN_DIR"
      fi
      if [ -e "$RUN_DIR/tmp" ] || { [ -n "$PG_DATA" ] && [ -e "$PG_DATA" ]; }; then
        STOP_FAILED+=("could not remove all of $RUN_DIR")
      fi
    fi
  fi
  if [ ${#STOP_FAILED[@]} -gt 0 ]; then
    warn "could not stop everything this run started:"
    printf '    %s\n' "${STOP_FAILED[@]}" >&2
    [ -n "$RUN_DIR" ] && warn "its files are kept for a look: $RUN_DIR/"
    [[ -n "$PG_DATA" && "$PG_DATA" != "$RUN_DIR"/* ]] && warn "and its PostgreSQL cluster: $PG_DATA/"
    [ "$status" = 0 ] && status=1
  fi
  exit "$status"
}

# ---------------------------------------------------------------------------------------------------------------
# A throw-away PostgreSQL cluster in RUN_DIR/pg on a local port, logging to RUN_DIR/postgres.log. PostgreSQL
# refuses to run as root: its tools then run as the postgres system user (PG_USER, a global, so that stop_postgres
# still has it at the end), and the cluster goes to a folder of its own in /tmp if that user cannot reach RUN_DIR
# (TMPDIR a private folder).
PG_USER="" PG_BIN="" PG_DATA=""
pg_tool() { if [ -n "$PG_USER" ]; then runuser -u "$PG_USER" -- "$@"; else "$@"; fi; }

start_postgres() {
  local port="${PGTEST_PORT:-$(free_port)}"
  PG_BIN="$(dirname "$(readlink -f "$(command -v initdb || echo /usr/lib/postgresql/15/bin/initdb)")")"
  PG_DATA="$RUN_DIR/pg"
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    PG_USER=postgres
    pg_tool test -x "$RUN_DIR" || PG_DATA="$(mktemp -d /tmp/rugby-pg.XXXXXX)"
  fi
  mkdir -p -m 700 "$PG_DATA"
  if [ -n "$PG_USER" ]; then chown "$PG_USER" "$PG_DATA"; fi
  STOPS+=(stop_postgres)
  log "starting PostgreSQL ($PG_BIN) on port $port"
  pg_tool "$PG_BIN/initdb" -D "$PG_DATA/data" -U rugby --auth=trust -E UTF8 >>"$RUN_DIR/postgres.log" 2>&1 \
    && pg_tool "$PG_BIN/pg_ctl" -D "$PG_DATA/data" -w -t 60 -o "-p $port -k '$PG_DATA' \
-c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >>"$RUN_DIR/postgres.log" 2>&1 \
    || { warn "PostgreSQL did not start; the end of $RUN_DIR/postgres.log:"; tail -n 20 "$RUN_DIR/postgres.log" >&2
         return 1; }
  export DATABASE_URL="postgres://rugby@127.0.0.1:$port/rugby"
  pg_tool "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U rugby rugby
}

stop_postgres() {
  local pid out
  [ -f "$PG_DATA/data/postmaster.pid" ] || return 0
  pid="$(head -n 1 "$PG_DATA/data/postmaster.pid")"
  alive "$pid" || return 0
  out="$(pg_tool "$PG_BIN/pg_ctl" -D "$PG_DATA/data" -m immediate -w -t "$STOP_TIMEOUT" stop 2>&1)" \
    || warn "pg_ctl could not stop PostgreSQL: $out"
  if ! within 10 gone "$pid"; then  # pg_ctl returns when the server removed its pid file, just before it exits
    warn "PostgreSQL (pid $pid) did not stop: killing it"
    kill -KILL "$pid" 2>/dev/null
    if ! within -k 1 gone "$pid"; then
      STOP_FAILED+=("PostgreSQL (pid $pid, cluster $PG_DATA/data) is still running")
      return 1
    fi
  fi
}

# A throw-away Redis on a local port, logging to RUN_DIR/redis.log.
start_redis() {
  local port="${REDISTEST_PORT:-$(free_port)}"
  log "starting Redis on port $port"
  start_child Redis redis.log redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
    --daemonize no --dir "$RUN_DIR"
  if ! within 10 redis_up "$port" "$CHILD_PID" || ! alive "$CHILD_PID"; then
    warn "Redis did not start; the end of $RUN_DIR/redis.log:"
    tail -n 20 "$RUN_DIR/redis.log" >&2
    return 1
  fi
  export REDIS_URL="redis://127.0.0.1:$port/0"
}
# Redis answers on port $1, or its process $2 has ended.
redis_up() { [ "$(redis-cli -p "$1" ping 2>/dev/null)" = PONG ] || gone "$2"; }
