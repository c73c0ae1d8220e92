#!/bin/sh
# Regenerates the testthat samples in this directory by really running
# Debian's R (r-base-core) and testthat (r-cran-testthat, with pkgload) on
# fixture/, an R package whose tests have one failing expectation, one
# error (stop()), two skips and a warning; fixture-broken/ adds a test
# file that does not parse and one whose code outside its tests fails. The
# absolute paths of the temporary copy the tests run in are replaced by
# /src, and nothing else is changed.
#
#   cd report/runners/testdata/testthat && ./gen-samples.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/calc" "$work/lib"
cp -R "$here/fixture/." "$work/calc/"
export R_LIBS_USER="$work/lib" LANG=C.UTF-8

run() { # sample name, then the command, run in the package
	out=$1
	shift
	(cd "$work/calc" && "$@" >"$work/out.log" 2>&1) || true
	sed "s|$work|/src|g" "$work/out.log" >"$here/$out.log"
}

# test_local() is devtools::test()'s: ProgressReporter in a script.
run progress-fail Rscript -e 'testthat::test_local()'
run progress-pass Rscript -e 'testthat::test_local(filter = "strings")'
R_CLI_NUM_COLORS=256 run progress-color-fail Rscript -e 'testthat::test_local()'
# A run that stops at its maximum of failures prints no total.
run progress-maxfails Rscript -e 'options(testthat.progress.max_fails = 1); testthat::test_local()'
# The compact reporter, test_file()'s: a status line per expectation.
run file-fail Rscript -e 'pkgload::load_all(quiet = TRUE); testthat::test_file("tests/testthat/test-math.R")'
run file-pass Rscript -e 'pkgload::load_all(quiet = TRUE); testthat::test_file("tests/testthat/test-strings.R")'
# CheckReporter, what test_check() (tests/testthat.R) prints in a script.
run check-fail Rscript -e 'testthat::test_local(reporter = "check")'
run check-pass Rscript -e 'testthat::test_local(reporter = "check", filter = "strings")'
run summary-fail Rscript -e 'testthat::test_local(reporter = "summary")'
# R CMD check runs tests/testthat.R and shows its last 13 lines.
(cd "$work" && R CMD build --no-build-vignettes calc >/dev/null 2>&1)
run rcmdcheck-fail sh -c 'cd .. && R CMD check --no-manual calc_0.1.0.tar.gz'
# rcmdcheck (r-lib/actions' check-r-package; Debian's r-cran-rcmdcheck)
# prints R CMD check's lines, then the tests' whole output; the name of
# the temporary directory it checks in is replaced by RtmpXXXXXX/fileXXXXXX.
if Rscript -e 'library(rcmdcheck)' >/dev/null 2>&1; then
	mkdir -p "$work/tmp"
	TMPDIR="$work/tmp" run rcmdcheck-pkg-fail Rscript -e 'rcmdcheck::rcmdcheck(args = "--no-manual", error_on = "never")'
	sed -i 's|/Rtmp[A-Za-z0-9]*/file[0-9a-f]*/|/RtmpXXXXXX/fileXXXXXX/|g' "$here/rcmdcheck-pkg-fail.log"
fi
# Code outside a test that fails: testthat's error for the file.
cp "$here/fixture-broken/test-setup.R" "$work/calc/tests/testthat/"
run progress-outside Rscript -e 'testthat::test_local()'
run check-outside Rscript -e 'testthat::test_local(reporter = "check")'
# A test file that does not parse stops the run: no total.
cp "$here/fixture-broken/test-broken.R" "$work/calc/tests/testthat/"
run progress-broken Rscript -e 'testthat::test_local()'
run check-broken Rscript -e 'testthat::test_local(reporter = "check")'
