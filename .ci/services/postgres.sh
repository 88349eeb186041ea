# PostgreSQL for the team mind tests (packages/team): Debian's server programs only. Each test
# starts its own temporary cluster on a free port (test-support/postgres.ts, run as the `postgres`
# user the package creates), so no default cluster is created or started here.
if [ ! -x /usr/lib/postgresql/15/bin/initdb ]; then
  export DEBIAN_FRONTEND=noninteractive
  # postgresql-common reads this before it would create and start the default cluster "main"
  mkdir -p /etc/postgresql-common
  if ! grep -q '^create_main_cluster' /etc/postgresql-common/createcluster.conf 2>/dev/null; then
    echo 'create_main_cluster = false' >> /etc/postgresql-common/createcluster.conf
  fi
  apt-get update -qq
  apt-get install -y -qq -o Dpkg::Options::=--force-confold postgresql >/dev/null
fi
# where test-support/postgres.ts finds initdb, pg_ctl and postgres
export PG_BIN=/usr/lib/postgresql/15/bin
