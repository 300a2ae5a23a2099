# Shared helpers for scripts/run and scripts/test. Sourced, not executed.
# Everything a fresh Debian machine needs is installed from here.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root for: $*"; return 1; fi
}

# Debian packages: Redis for the broker/cache in tests, Chromium for browser tests.
ensure_system_packages() {
  local missing=()
  command -v redis-server >/dev/null || missing+=(redis-server)
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" fonts-dejavu-core >/dev/null
  fi
}

# A virtual environment with the pinned requirements; reinstalls only when they change.
ensure_venv() {
  local req="$1" stamp
  [ -x "$PY" ] || python3 -m venv "$VENV"
  stamp="$VENV/.installed-$(basename "$req" .txt)"
  if [ ! -f "$stamp" ] || [ -n "$(find "$ROOT/requirements" -newer "$stamp" -name '*.txt')" ]; then
    log "installing Python packages from $req"
    "$PY" -m pip install -q --upgrade pip >/dev/null
    "$PY" -m pip install -q -r "$req"
    touch "$stamp"
  fi
}

# A throw-away PostgreSQL cluster on a local port, owned by the project's run.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

PG_DIR=""
start_postgres() {
  local port="${PGTEST_PORT:-$(free_port)}" bindir user=""
  bindir="$(dirname "$(readlink -f "$(command -v initdb || echo /usr/lib/postgresql/15/bin/initdb)")")"
  PG_DIR="$(mktemp -d /tmp/rugby-pg.XXXXXX)"
  # PostgreSQL refuses to run as root: use the postgres system user then.
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    chown postgres "$PG_DIR"; user=postgres
  fi
  _pg() { if [ -n "$user" ]; then runuser -u "$user" -- "$@"; else "$@"; fi; }
  log "starting PostgreSQL ($bindir) on port $port"
  _pg "$bindir/initdb" -D "$PG_DIR/data" -U rugby --auth=trust -E UTF8 >/dev/null
  _pg "$bindir/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
    -o "-p $port -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" start >/dev/null
  export DATABASE_URL="postgres://rugby@127.0.0.1:$port/rugby"
  _pg "$bindir/createdb" -h 127.0.0.1 -p "$port" -U rugby rugby
  PG_STOP="_pg $bindir/pg_ctl -D $PG_DIR/data -m immediate stop"
}

stop_postgres() {
  if [ -n "$PG_DIR" ]; then eval "$PG_STOP" >/dev/null 2>&1 || true; rm -rf "$PG_DIR"; PG_DIR=""; fi
}

REDIS_PID=""
start_redis() {
  local port="${REDISTEST_PORT:-$(free_port)}"
  log "starting Redis on port $port"
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no >/tmp/rugby-redis.log 2>&1 &
  REDIS_PID=$!
  for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  export REDIS_URL="redis://127.0.0.1:$port/0"
}

stop_redis() {
  if [ -n "$REDIS_PID" ]; then kill "$REDIS_PID" 2>/dev/null || true; REDIS_PID=""; fi
}
