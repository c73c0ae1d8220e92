# Shared by real.sh and debian.sh, which source it after setting GEN,
# CORPUS, WORK, CHECK_ONLY, CASES and (to capture) RL.

# replace FILE OLD NEW: replaces the literal text OLD (may span lines) by NEW;
# OLD must occur exactly once in FILE.
replace() {
	OLD=$2 NEW=$3 perl -0pi -e '
		my $n = () = /\Q$ENV{OLD}\E/g;
		die "replace: $n matches in $ARGV, want 1\n" if $n != 1;
		s/\Q$ENV{OLD}\E/$ENV{NEW}/;
	' "$1"
}

# capture NAME DIR COMMAND... runs COMMAND in DIR under runledger into
# $CORPUS/NAME/store (wiped first), with $CAPTURE_ENV (NAME=VALUE) in its
# environment. The command is expected to fail.
capture() {
	local name=$1 dir=$2
	shift 2
	rm -rf "$CORPUS/$name/store"
	mkdir -p "$CORPUS/$name"
	(cd "$dir" && env ${CAPTURE_ENV:-} "$RL" run --dir "$CORPUS/$name/store" --name "$name" --quiet -- "$@") || true
	rm -f "$CORPUS/$name/store/.lock"
}

# check NAME: every "must" of NAME/want.json occurs on one line of stdout.log
# or stderr.log of the (single) stored run.
check() {
	local name=$1
	node -e '
		const fs = require("fs"), path = require("path");
		const [want, store] = process.argv.slice(1);
		const runs = fs.readdirSync(store).filter(n => fs.existsSync(path.join(store, n, "record.json")));
		if (runs.length !== 1) { console.error(`${store}: ${runs.length} runs, want 1`); process.exit(1); }
		const dir = path.join(store, runs[0]);
		const lines = ["stdout.log", "stderr.log"].flatMap(f => fs.readFileSync(path.join(dir, f), "utf8").split("\n"));
		let bad = 0;
		for (const m of JSON.parse(fs.readFileSync(want, "utf8")).must) {
			if (!lines.some(l => l.includes(m))) { console.error(`${want}: missing ${JSON.stringify(m)}`); bad++; }
		}
		process.exit(bad ? 1 : 0);
	' "$CORPUS/$name/want.json" "$CORPUS/$name/store"
}

# run_cases KEEP: makes each case in CASES (unless --check) and checks it;
# WORK is wiped before and, unless KEEP is 1, after. Exits 1 if a check fails.
run_cases() {
	if [ $CHECK_ONLY = 0 ]; then
		rm -rf "$WORK"
		mkdir -p "$WORK"
		[ "$1" = 1 ] || trap 'rm -rf "$WORK"' EXIT
	fi
	local bad=0 c
	for c in "${CASES[@]}"; do
		if [ $CHECK_ONLY = 0 ]; then
			echo "== $c" >&2
			"case_$c"
		fi
		check "$c" || bad=1
	done
	exit $bad
}
