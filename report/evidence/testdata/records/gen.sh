#!/bin/sh
# Regenerates the samples of a failure's message printed above its
# evidence (TestRecordAndDie):
#   python-logging.log  stderr of a real python3 script that logs through
#                       the logging module in three formats (its own
#                       `LEVEL name: msg`, the default `ERROR:root:msg`,
#                       asctime first) and logs exceptions with their
#                       tracebacks among many INFO lines;
#   prove-die.stdout.log, prove-die.stderr.log
#                       a real `prove -lv t` run (Perl's TAP harness) in
#                       which t/calc.t fails an is() and t/config.t dies
#                       (`… at t/config.t line 7.` on stderr).
# Needs python3, perl and prove. Usage: sh gen.sh (from this directory)
set -eu
out=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

cat > ingest.py <<'PY'
import logging
import sys

logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
log = logging.getLogger("ingest")


def parse(rec):
    return int(rec["size"])


def main():
    for i in range(60):
        log.info("segment %d written (%d records)", i, i * 7)
    try:
        parse({"size": "12k"})
    except ValueError:
        log.exception("segment 60 could not be parsed")
    logging.getLogger("store").error("flush of /var/lib/ingest/seg-0060 failed")
    for i in range(30):
        log.info("segment %d skipped", 61 + i)
    # the default format, as a script that calls logging.error first gets it
    root = logging.getLogger()
    root.handlers[0].setFormatter(logging.Formatter(logging.BASIC_FORMAT))
    try:
        open("/nonexistent/ingest.lock")
    except OSError:
        logging.error("cannot lock the ingest directory", exc_info=True)
    for i in range(30):
        log.info("segment %d skipped", 91 + i)
    root.handlers[0].setFormatter(logging.Formatter("%(asctime)s - %(name)s - %(levelname)s - %(message)s"))
    try:
        {}["checkpoint"]
    except KeyError:
        logging.getLogger("ingest.checkpoint").critical("no checkpoint to resume from", exc_info=True)
    for i in range(30):
        log.info("segment %d skipped", 121 + i)
    return 2


sys.exit(main())
PY
python3 ingest.py 2>"$out/python-logging.log" || true
# asctime is the one thing that changes from run to run
sed -i -E 's/^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8},[0-9]{3}/2026-12-05 13:58:07,215/' "$out/python-logging.log"
sed -i "s#$work#/work/ingest#g" "$out/python-logging.log"

mkdir t
cat > t/calc.t <<'PL'
use strict; use warnings;
use Test::More;
is(2*3, 6, "multiplies");
is(7-10, 3, "subtracts");
done_testing();
PL
cat > t/config.t <<'PL'
use strict; use warnings;
use Test::More;
ok(1, "parses defaults");
ok(1, "reads port");
open(my $fh, '<', 't/missing.conf') or die "cannot open t/missing.conf: $!";
ok(1, "reads the file");
done_testing();
PL
for i in 1 2; do
	printf 'use Test::More;\nok(1, "record $_ round-trips") for 1..100;\ndone_testing;\n' > "t/z$i.t"
done
prove -lv t >"$out/prove-die.stdout.log" 2>"$out/prove-die.stderr.log" || true
sed -i -E 's/^Files=([0-9]+), Tests=([0-9]+), .*/Files=\1, Tests=\2,  1 wallclock secs ( 0.06 usr  0.02 sys +  0.33 cusr  0.10 csys =  0.51 CPU)/' "$out/prove-die.stdout.log"
