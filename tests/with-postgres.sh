#!/usr/bin/env bash
# Run a command against a private, throwaway PostgreSQL server.
#
#   tests/with-postgres.sh .venv/bin/python -m pytest
#
# Creates a cluster in a temporary folder, starts it on a spare port on 127.0.0.1, exports
# DATABASE_URL for the command, and always stops the server and deletes the folder afterwards.
# Exits with the command's exit status. Needs the PostgreSQL server binaries (initdb, pg_ctl),
# not a running server.
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 COMMAND [ARGS...]" >&2
    exit 2
fi

find_bindir() {
    local dir
    if command -v pg_config >/dev/null 2>&1; then
        dir=$(pg_config --bindir)
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
            echo "$dir"
            return
        fi
    fi
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
            echo "$dir"
            return
        fi
    done
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
        return
    fi
    return 1
}

if ! bindir=$(find_bindir); then
    cat >&2 <<'EOF'
error: PostgreSQL server binaries (initdb, pg_ctl) not found.
Install them (Debian/Ubuntu: apt-get install postgresql; macOS: brew install postgresql),
or set SKIP_POSTGRES=1 to run the test suite on SQLite only.
EOF
    exit 1
fi

# initdb refuses to run as root, so as root the server runs as an unprivileged system user.
run_as_owner=()
if [ "$(id -u)" -eq 0 ]; then
    owner=postgres
    if ! id "$owner" >/dev/null 2>&1; then
        owner=scorekeeper-pg
        id "$owner" >/dev/null 2>&1 ||
            useradd --system --no-create-home --shell /usr/sbin/nologin "$owner"
    fi
    run_as_owner=(runuser -u "$owner" --)
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/scorekeeper-pg.XXXXXX")
data="$tmp/data"
if [ ${#run_as_owner[@]} -gt 0 ]; then
    chown "$owner" "$tmp"
fi

pg() {
    # From inside the folder: the server's user may not be allowed into the caller's directory.
    (cd "$tmp" && ${run_as_owner[@]+"${run_as_owner[@]}"} "$@")
}

started=
cleanup() {
    if [ -n "$started" ]; then
        pg "$bindir/pg_ctl" -D "$data" -m fast -w stop >/dev/null || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

pg "$bindir/initdb" -D "$data" -A trust -U postgres -E UTF8 --no-sync >"$tmp/initdb.log" 2>&1 || {
    cat "$tmp/initdb.log" >&2
    exit 1
}
started=1
pg "$bindir/pg_ctl" -D "$data" -l "$tmp/server.log" -w \
    -o "-p $port -k $tmp -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null || {
    cat "$tmp/server.log" >&2
    exit 1
}
pg "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres scorekeeper

export DATABASE_URL="postgres://postgres@127.0.0.1:$port/scorekeeper"
echo "with-postgres: PostgreSQL $("$bindir/pg_ctl" --version | awk '{print $3}') on port $port" >&2

status=0
"$@" || status=$?
exit "$status"
