#!/usr/bin/env bash
# A Crib Tiles cluster on this computer's loopback, from the distribution's engines (issue 46):
#
#   deploy/cluster.sh start DIR [N]   a fresh PostgreSQL cluster in DIR (Debian's postgresql; as the postgres
#                                     user when run as root), N `cribtiles serve --store` processes (default 2)
#                                     and HAProxy in front (deploy/haproxy.cfg, its ports changed); the last
#                                     line printed is the address to give the clients, ws://127.0.0.1:PORT;
#                                     DIR/servers.pids has one server PID a line
#   deploy/cluster.sh server DIR I    start server I (1..N) again, on its port (after it was killed)
#   deploy/cluster.sh stop DIR        stop everything `start` started, and the servers started since
#
# Everything listens on 127.0.0.1 only. CRIBTILES is the command that runs Crib Tiles (default: `cribtiles`
# if it is on the PATH, else python3 -m cribtiles); CRIBTILES_LEASE the seconds a process holds a table
# (cribtiles serve --lease; default its own). Each server's output is DIR/server-I.out, its log
# DIR/server-I/cribtiles.log; PostgreSQL's DIR/pg/log; HAProxy's configuration DIR/haproxy.cfg.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# each connection through HAProxy takes two of its files, one of a server's: the default of 1024 would
# hold HAProxy to about 500 connections (it sizes its maxconn from this limit)
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
PATIENCE=60  # seconds anything may take to start

die() { echo "cluster.sh: $*" >&2; exit 1; }

usage() { die "usage: cluster.sh start DIR [N] | server DIR I | stop DIR"; }

crib_command() {  # the words that run Crib Tiles, in the array CRIB
  if [ -n "${CRIBTILES:-}" ]; then
    read -r -a CRIB <<<"$CRIBTILES"  # a command with its arguments, like "python3 -m cribtiles"
  elif command -v cribtiles >/dev/null; then
    CRIB=(cribtiles)
  else
    CRIB=(python3 -m cribtiles)
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_bin() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$found" ] || found=$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")
  [ -x "$found/initdb" ] || die "PostgreSQL is not installed (Debian: apt-get install postgresql)"
  echo "$found"
}

wait_for_line() {  # FILE TEXT PID: until FILE holds TEXT, while PID lives
  local i
  for i in $(seq $((PATIENCE * 10))); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    kill -0 "$3" 2>/dev/null || { cat "$1" >&2; die "process $3 ended before saying '$2'"; }
    sleep 0.1
  done
  cat "$1" >&2
  die "no '$2' from process $3 in $PATIENCE s"
}

start_server() {  # DIR I: server I on its port, its PID added to DIR/servers.pids
  local dir=$1 i=$2 port pid lease=()
  # shellcheck source=/dev/null
  . "$dir/cluster.env"
  port=$(sed -n "${i}p" "$dir/ports")
  [ -n "$port" ] || die "no server $i in $dir"
  [ -z "${CRIBTILES_LEASE:-}" ] || lease=(--lease "$CRIBTILES_LEASE")
  crib_command
  # started directly (not in a function's subshell): $! is the server's own PID, for servers.pids
  "${CRIB[@]}" serve --host 127.0.0.1 --port "$port" --data-dir "$dir/server-$i" --store "$STORE" \
    --forwarded-allow-ips 127.0.0.1 "${lease[@]}" >"$dir/server-$i.out" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >>"$dir/servers.pids"
  wait_for_line "$dir/server-$i.out" "Crib Tiles server on" "$pid"
}

start() {
  local dir=$1 n=${2:-2} bin pgport proxy ports=() i
  [[ "$n" =~ ^[1-9][0-9]?$ ]] || die "N is a number of servers, 1 to 99"
  [ ! -e "$dir/cluster.env" ] || die "$dir already holds a cluster: stop it, or give another folder"
  command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ] || die "HAProxy is not installed (Debian: apt-get install haproxy)"
  bin=$(pg_bin)
  mkdir -p "$dir/pg"
  dir=$(cd "$dir" && pwd)
  if [ "$(id -u)" = 0 ]; then
    chown postgres: "$dir/pg"
    runuser -u postgres -- test -w "$dir/pg" \
      || die "the postgres user cannot reach $dir/pg (a folder on the way is closed to it): choose a DIR it can"
  fi
  as_postgres "$bin/initdb" -D "$dir/pg/data" -U postgres -A trust -E UTF8 >"$dir/pg/initdb.log"
  pgport=$(free_port)
  as_postgres "$bin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/log" -w -t "$PATIENCE" \
    -o "-c listen_addresses=127.0.0.1 -p $pgport -k $dir/pg" start >/dev/null
  as_postgres "$bin/createdb" -h 127.0.0.1 -p "$pgport" -U postgres cribtiles
  {
    echo "PGBIN=$bin"
    echo "STORE=postgresql://postgres@127.0.0.1:$pgport/cribtiles"
  } >"$dir/cluster.env"
  : >"$dir/servers.pids"
  : >"$dir/ports"
  for i in $(seq "$n"); do
    ports+=("$(free_port)")
    echo "${ports[-1]}" >>"$dir/ports"
  done
  for i in $(seq "$n"); do start_server "$dir" "$i"; done
  proxy=$(free_port)
  awk -v port="$proxy" -v ports="${ports[*]}" '
    /^ *bind / { print "    bind 127.0.0.1:" port; next }
    /^backend / { backend = $2; done = 0 }
    /^ *server / {
      if (!done) {
        n = split(ports, p, " ")
        for (i = 1; i <= n; i++)
          print "    server s" i " 127.0.0.1:" p[i] (backend == "tables" ? " check" : " track tables/s" i)
        done = 1
      }
      next
    }
    { print }' "$here/haproxy.cfg" >"$dir/haproxy.cfg"
  "$(command -v haproxy || echo /usr/sbin/haproxy)" -f "$dir/haproxy.cfg" -D -p "$dir/haproxy.pid"
  for i in $(seq $((PATIENCE * 10))); do
    (exec 3<>"/dev/tcp/127.0.0.1/$proxy") 2>/dev/null && break
    sleep 0.1
  done
  echo "ws://127.0.0.1:$proxy"
}

stop() {
  local dir=$1 pid
  [ -e "$dir/cluster.env" ] || die "$dir holds no cluster"
  # shellcheck source=/dev/null
  . "$dir/cluster.env"
  if [ -s "$dir/haproxy.pid" ]; then kill "$(cat "$dir/haproxy.pid")" 2>/dev/null || true; fi
  while read -r pid; do kill -CONT "$pid" 2>/dev/null || true; kill "$pid" 2>/dev/null || true; done <"$dir/servers.pids"
  while read -r pid; do
    for _ in $(seq $((PATIENCE * 10))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done <"$dir/servers.pids"
  as_postgres "$PGBIN/pg_ctl" -D "$dir/pg/data" -m fast -w stop >/dev/null || true
  rm -f "$dir/cluster.env"
}

case "${1:-}" in
  start) [ $# -ge 2 ] || usage; start "$2" "${3:-2}" ;;
  server) [ $# -eq 3 ] || usage; start_server "$(cd "$2" && pwd)" "$3"; tail -n 1 "$2/server-$3.out" ;;
  stop) [ $# -eq 2 ] || usage; stop "$2" ;;
  *) usage ;;
esac
