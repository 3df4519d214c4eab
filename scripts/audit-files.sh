#!/usr/bin/env bash
# Tries every path nqueens writes and reads as a hostile user would arrange it, and counts what
# held:
#   1. a symbolic link (dangling, to a file, to a directory) at every path the tool writes:
#      refused in one line (exit 1, nothing on stdout), the link and its target left alone;
#   2. a FIFO, a device, a directory, a socket and /proc/kmsg at every path it reads: refused in
#      one line without waiting (a 10 s guard);
#   3. as root only: another user's files where a plot or a page would replace them (refused up
#      front, run as uid 65534 with setpriv), another user's journal resumed (a warning that
#      names the owner), and a journal altered with its checksums recomputed (exit 1 on resume
#      and on merge, the total still printed).
# Usage: scripts/audit-files.sh [NQUEENS_BINARY]   (default: target/debug/nqueens)
# Exit status: 0 when every case held, 1 otherwise (the failed cases are listed).
set -u

bin=$(realpath "${1:-target/debug/nqueens}")
[[ -x $bin ]] || { echo "no binary at $bin (cargo build first)" >&2; exit 2; }
work=$(mktemp -d /tmp/nqueens-audit.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2

passed=0 failed=0
failures=()
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); failures+=("$1"); }

# Runs the tool with a guard; sets $rc, $out (stdout) and $err (stderr).
run() {
    timeout 10 "$@" >"$work/.out" 2>"$work/.err" </dev/null
    rc=$?
    out=$(cat "$work/.out")
    err=$(cat "$work/.err")
}

# Checks the last run was a one-line refusal: exit 1, nothing on stdout, one error line.
refused_in_one_line() {
    [[ $rc == 1 && -z $out && $(printf '%s\n' "$err" | wc -l) == 1 && $err == "nqueens: error: "* ]]
}

# 0. A saved result to compare, made once.
"$bin" scale 7 -t 1 -r 1 -f json >"$work/saved.json" 2>/dev/null

# 1. Links where the tool writes.
mkdir -p "$work/w"
write_cases=(
    "count 10 --checkpoint LINK|n10.ckpt"
    "count 8,9 --checkpoint w/run.ckpt|run-n8.ckpt"
    "count 10 --checkpoint w/|n10.ckpt"
    "count 10 --shard 1/2 --checkpoint w/|n10-s1-of-2.ckpt"
    "scale 7 -t 1 -r 1 --plot LINK|s.svg"
    "scale --compare $work/saved.json --plot LINK|c.svg"
    "man --dir w|nqueens.1"
    "man --dir w|nqueens-count.1"
)
link_kinds=(dangling file directory)
for case in "${write_cases[@]}"; do
    args=${case%|*} name=${case#*|}
    link="$work/w/$name"
    args=${args//LINK/$link}
    for kind in "${link_kinds[@]}"; do
        rm -rf "$work/target" "$link"
        case $kind in
            dangling) ;;
            file) printf keep >"$work/target" ;;
            directory) mkdir "$work/target" ;;
        esac
        ln -s "$work/target" "$link"
        # shellcheck disable=SC2086 # the case's words are the arguments
        run "$bin" $args
        held=yes
        refused_in_one_line || held="no (exit $rc: $err)"
        [[ -L $link ]] || held="no (the link is gone)"
        case $kind in
            dangling) [[ -e $work/target ]] && held="no (the target was created)" ;;
            file) [[ $(cat "$work/target") == keep ]] || held="no (the target was written)" ;;
            directory) [[ -z $(ls -A "$work/target") ]] || held="no (written into the directory)" ;;
        esac
        if [[ $held == yes ]]; then pass; else fail "link ($kind) at $name for '$args': $held"; fi
        rm -f "$link"
    done
    # Nothing else written beside it (pages are all or nothing; journals of other boards may be).
    [[ $args == man* ]] && rm -f "$work"/w/*.1
done
links=$(( ${#write_cases[@]} * ${#link_kinds[@]} ))

# 2. What is not a regular file where the tool reads.
mkfifo "$work/fifo"
mkdir "$work/dir"
python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$work/sock"
read_kinds=("$work/fifo" /dev/zero "$work/dir" "$work/sock")
[[ -e /proc/kmsg ]] && read_kinds+=(/proc/kmsg)
read_cases=("scale --compare PATH" "merge PATH" "count 8 --checkpoint PATH")
reads=0
for path in "${read_kinds[@]}"; do
    for case in "${read_cases[@]}"; do
        # A directory is where --checkpoint keeps journals: not a read of it.
        [[ $path == "$work/dir" && $case == count* ]] && continue
        reads=$((reads + 1))
        # shellcheck disable=SC2086
        run "$bin" ${case//PATH/$path}
        if [[ $rc == 124 ]]; then
            fail "'${case//PATH/$path}' blocked"
        elif refused_in_one_line; then
            pass
        else
            fail "'${case//PATH/$path}': exit $rc: $err"
        fi
    done
done

# 3. Other users (root only).
others=0
if [[ $(id -u) == 0 ]] && command -v setpriv >/dev/null; then
    chmod 755 "$work"
    nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    mkdir -m 1777 "$work/sticky"
    mkdir -m 777 "$work/open"
    for dir in sticky open; do
        for mode in 644 666; do
            # 0666 in the open directory is anyone's to write: replacing it is fair.
            [[ $dir == open && $mode == 666 ]] && continue
            others=$((others + 1))
            printf keep >"$work/$dir/root.svg"
            chmod "$mode" "$work/$dir/root.svg"
            run "${nobody[@]}" "$bin" scale 8 -t 1,2 -r 1 --plot "$work/$dir/root.svg"
            if refused_in_one_line && [[ $(cat "$work/$dir/root.svg") == keep ]]; then
                pass
            else
                fail "root's $mode plot in the $dir directory: exit $rc: $err"
            fi
        done
    done
    others=$((others + 1))
    printf keep >"$work/open/nqueens.1"
    run "${nobody[@]}" "$bin" man --dir "$work/open"
    if refused_in_one_line && [[ $(cat "$work/open/nqueens.1") == keep ]]; then
        pass
    else
        fail "root's page in an open directory: exit $rc: $err"
    fi
    # Another user's journal, resumed by root: a warning naming the owner.
    others=$((others + 1))
    "$bin" count 8 --checkpoint "$work/theirs.ckpt" >/dev/null 2>&1
    chown 65534:65534 "$work/theirs.ckpt"
    run "$bin" count 8 --checkpoint "$work/theirs.ckpt"
    if [[ $rc == 0 && $err == *"warning: journal $work/theirs.ckpt belongs to"*"uid 65534"* ]]; then
        pass
    else
        fail "another user's journal resumed without a warning: $err"
    fi
    # A journal altered with its checksums recomputed: resumed and merged, exit 1.
    "$bin" count 12 --checkpoint "$work/n12.ckpt" >/dev/null 2>&1
    python3 - "$work/n12.ckpt" <<'EOF'
import struct, sys, zlib
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
count = struct.unpack_from("<Q", data, 64 + 18)[0]
struct.pack_into("<Q", data, 64 + 18, count + 1000)
struct.pack_into("<I", data, 64 + 26, zlib.crc32(bytes(data[64:64 + 26])))
open(path, "wb").write(data)
EOF
    for command in "count 12 --checkpoint $work/n12.ckpt" "merge $work/n12.ckpt"; do
        others=$((others + 1))
        # shellcheck disable=SC2086
        run "$bin" $command
        if [[ $rc == 1 && $out == *22,200* && $err == *"is not the known 14,200"* ]]; then
            pass
        else
            fail "altered journal, '$command': exit $rc: $err"
        fi
    done
else
    echo "note: not root (or no setpriv): the other-user cases are not tried"
fi

echo "links at the paths written: ${#write_cases[@]} paths x ${#link_kinds[@]} kinds = $links cases"
echo "not regular files where read: ${#read_kinds[@]} kinds x ${#read_cases[@]} commands, less the directory given to --checkpoint = $reads cases"
echo "other users and altered journals: $others cases"
echo "held: $passed of $((passed + failed))"
for f in "${failures[@]}"; do echo "FAILED: $f"; done
((failed == 0))
