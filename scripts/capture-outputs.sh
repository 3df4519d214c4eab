#!/usr/bin/env bash
# Captures what a user of the command sees into a folder, so that two builds can be compared
# with `diff -r`: every --help and -h, the manual (one page and --dir), every completion script,
# quick examples of the guide and the README, a watch page, frames and JSON, saved scale
# results compared (JSON, CSV, SVG) and a few error messages. What varies from run to run (times,
# speeds, the machine's thread count) is normalised; each capture also records the exit status.
#
# Usage: scripts/capture-outputs.sh BINARY FOLDER   (run from the repository's root)
set -u

bin=$(realpath "$1")
dir=$2
root=$(pwd)
mkdir -p "$dir"
dir=$(realpath "$dir")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export NO_COLOR=1 COLUMNS=100 LC_ALL=C

# Durations, speeds and decimals become placeholders; spacing and table rules are collapsed
# (their widths follow the numbers); a rate left out of a count too short to time (`-`) reads
# as a rate.
normalise() {
    sed -E \
        -e 's/[0-9]+(\.[0-9]+)? ?(ns|µs|us|ms|s|min|h|k\/s|M\/s|G\/s|T\/s)\b/T/g' \
        -e 's/[0-9]+\.[0-9]+(e-?[0-9]+)?/F/g' \
        -e 's/than (matrix|array|attack|bitmask) and takes/than X and takes/' \
        -e 's/a larger n such as [0-9]+/a larger n such as N/' \
        -e 's/ +/ /g' -e 's/[-=]{2,}/-/g' \
        -e 's/T - ([0-9])/T T \1/g'
}

# run NAME ARGS...: stdout, stderr and the exit status of one run, byte for byte.
run() {
    local name=$1
    shift
    (cd "$work" && "$bin" "$@" >"$dir/$name.out" 2>"$dir/$name.err" </dev/null)
    echo $? >"$dir/$name.status"
}

# timed NAME ARGS...: the same, normalised.
timed() {
    local name=$1
    shift
    (cd "$work" && "$bin" "$@" 2>"$dir/$name.err.raw" </dev/null | normalise >"$dir/$name.out")
    echo "${PIPESTATUS[0]}" >"$dir/$name.status"
    normalise <"$dir/$name.err.raw" >"$dir/$name.err"
    rm -f "$dir/$name.err.raw"
}

commands="count known verify compare watch scale solve list merge estimate completions man help"
run help --help
run help-short -h
run help-help help
run version-short -V
for c in $commands; do
    run "help-$c" "$c" --help
    run "help-$c-short" "$c" -h
    run "help-of-$c" help "$c"
done

run man man
mkdir -p "$work/pages"
run man-dir man --dir pages
for page in "$work"/pages/*; do cp "$page" "$dir/page-$(basename "$page")"; done
for shell in bash elvish fish powershell zsh; do run "completions-$shell" completions "$shell"; done

# The guide's and the README's quick examples.
run known-max-10 known --max 10
run known-csv known --max 6 --format csv
run known-24-27 known 24..=27
run known-json known 26..=27 --format json
run solve-8 solve 8
run solve-8-json solve 8 --format json
run solve-5-sym solve 5 --all-symmetries
run solve-6-coords solve 6 --coordinates
run solve-big solve 1000000 --format columns
run list-6 list 6
run list-8-json list 8 --format json --limit 2
run list-8-unique list 8 --unique
run list-8-board list 8 --unique --limit 1 --format board --unicode
timed count-8-csv count 8 --threads 2 --format csv
timed count-12-json count 12 --threads 2 --format json
timed count-10-12 count 10..=12 --threads 2
timed count-alg count 6..=8 --algorithm bitmask
timed count-alg-csv count 8 --algorithm bitmask --format csv
timed count-alg-json count 8 --algorithm bitmask --format json
timed count-ckpt count 12 --threads 2 --checkpoint n12.ckpt
timed count-ckpt-resume count 12 --threads 2 --checkpoint n12.ckpt --format csv
for k in 0 1 2 3; do timed "count-shard-$k" count 11 --shard "$k/4" --checkpoint "n11-$k.ckpt" --threads 2; done
timed merge merge n11-0.ckpt n11-1.ckpt n11-2.ckpt n11-3.ckpt
timed merge-csv merge n11-0.ckpt n11-1.ckpt n11-2.ckpt n11-3.ckpt --format csv
timed merge-json merge n11-0.ckpt n11-1.ckpt n11-2.ckpt n11-3.ckpt --format json
timed merge-missing merge n11-0.ckpt n11-1.ckpt n11-3.ckpt
timed compare-8 compare 8
timed compare-8-csv compare 8 --format csv
timed compare-6-json compare 6 --algorithm matrix,bitmask --format json
timed verify-12 verify --max 12 --threads 2
timed verify-8-json verify 8 --format json
timed verify-csv verify 11..=12 --threads 2 --format csv
timed estimate-json estimate 16 --samples 1000 --threads 2 --format json
timed estimate-csv estimate 16 --samples 1000 --threads 2 --format csv

# watch: JSON, frames and a page.
run watch-json watch 4 --format json --limit 3
run watch-frames watch 5 --frames --limit 40
run watch-bitmask-frames watch 6 -a bitmask --frames --limit 40
run watch-html watch 6 --html w6.html
cp "$work/w6.html" "$dir/watch-6.html"
run watch-html-bitmask watch 5 -a bitmask --html w5.html --limit 300
cp "$work/w5.html" "$dir/watch-5-bitmask.html"

# scale: saved results compared (no timing), and a quick live run normalised.
busy=$root/cli/tests/data/scale-17-busy-2-cores.json
xeon=$root/docs/measurements/scale-19-xeon-16-cores.json
run scale-compare scale --compare "$busy" "$xeon"
run scale-compare-json scale --compare "$busy" "$xeon" --format json
run scale-compare-csv scale --compare "$busy" "$xeon" --format csv
run scale-compare-one scale --compare "$xeon"
run scale-plot scale --compare "$busy" "$xeon" --plot both.svg
cp "$work/both.svg" "$dir/scale-both.svg"
run scale-plot-one scale --compare "$xeon" --plot one.svg
cp "$work/one.svg" "$dir/scale-one.svg"
timed scale-live scale 8 --threads 1 --repeat 1 --format csv

# Errors.
run err-none
run err-unknown frobnicate
run err-count-empty count
run err-count-word count abc
run err-count-flag count 8 --bogus
run err-count-negative count -1
run err-count-range count 9..=4
run err-count-dash count 8-12
run err-threads-zero count 8 --threads 0
run err-watch-big watch 100
run err-merge-missing merge nothing.ckpt
run err-completions completions tcsh
run err-format count 8 --format xml
run err-solve-zero solve 0
run err-known-json known --format jsno
exit 0
