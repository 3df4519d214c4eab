#!/usr/bin/env bash
# A new user's trial of the command line: each step reproduces one friction point that was fixed
# (progress, costs, digits, tables, flags, messages, manual, plot names, exit codes, times, small
# items, colour). Run from the repository root after `cargo build --release`; read the output.
NQ=${NQ:-./target/release/nqueens}
d=$(mktemp -d)
run() { echo "\$ nqueens $*"; "$NQ" "$@"; echo "[exit $?]"; }
pty() { echo "\$ (pty) nqueens $*"; script -qfec "$NQ $*" /dev/null | tr '\r' '\n' | tail -${TAILN:-6}; }
echo "== 1 progress"; TAILN=4 pty estimate 20 --seconds 3; TAILN=4 pty verify 15..=16 --kernel depth-first; TAILN=4 pty compare 14 -a bitmask
echo "== 2 one cost"; run verify 27; run count 27 -t 2 --max-seconds 10; run estimate 27 --seconds 2 | tail -5; run scale 24 -t 1,2 2>&1 | tail -2
echo "== 3 digits"; run known 25..=27; run compare 12 -a bitmask | head -5
echo "== 4 resumed table"; run count 10..=12 --checkpoint $d/runs/ >/dev/null 2>&1; run count 10..=12 --checkpoint $d/runs/
echo "== 5 flags"; run count 22 --max-seconds 10; run count 8 --algorithms matrix,bitmask; run list 40 --limit 1 --max-seconds 1
echo "== 6 messages"; run count 12 --checkpoint $d/j.ckpt >/dev/null; run count 13 --checkpoint $d/j.ckpt; printf 'xx' | dd of=$d/j.ckpt bs=1 seek=100 conv=notrunc 2>/dev/null; run count 12 --checkpoint $d/j.ckpt
echo "== 7 man"; "$NQ" man | grep -c '^\.SH'; "$NQ" man | grep -c 'checkpoint'
echo "== 8 plot"; run scale 10 -t 1 -r 1 --plot $d/s.png
echo "== 9 exit codes"; run count 10 --checkpoint $d/a/b/c.ckpt; run merge $d/nope.ckpt
echo "== 10 times"; run count 0..=3; run compare 3; run count 16 -t 1
echo "== 12 small"; run list 8 --coordinates; run estimate 20 --samples 1; run count 1..=2 --checkpoint $d/small/
echo "== 13 quiet, hints, numbers"; run solve 6 -q -f columns; run count 6 -q --checkpoint $d/m.ckpt >/dev/null; run merge $d/m.ckpt -q; run watch 4 --max-steps 2 -f json -q; run count 8 -t 4 -q
run count 8-12; run count 4:8; run 16; run count 8 --unique; run compare 10 | tail -5; run estimate 16 --samples 2000 | grep known
run count 6 --checkpoint $d/nodir/x.ckpt; run man --dir $d/man/man1 | tail -2
echo "== color"; script -qfec "$NQ count 65" /dev/null | cat -v; NO_COLOR=1 script -qfec "$NQ count 65" /dev/null | cat -v
echo "== diagonals"; run watch 4 --format json --max-steps 3 2>&1 | grep -o '"line":"[a-z-]*"\|"narration":"[^"]*"'
echo "== watch bitmask, a step per queen"; run watch 4 -a bitmask --max-steps 3 2>/dev/null | tail -9
tmx() { command -v tmux >/dev/null || { echo "(no tmux)"; return; }; tmux -L ux -f /dev/null new-session -d -x "$1" -y "$2" -s ux "$NQ ${*:3}; sleep 9"; sleep 1.5; tmux -L ux send-keys -t ux Space; sleep 0.3; echo "\$ (tmux $1x$2) nqueens ${*:3}"; tmux -L ux capture-pane -p -t ux; tmux -L ux kill-server; }
echo "== watch too small, big, and a bitmask frame"; tmx 40 12 watch 6; tmx 160 45 watch 8 --speed 50 | head -8; tmx 100 30 watch 8 -a bitmask --speed 50
echo "== watch --cast (Ctrl-C after 2 s: exit 130, the recording kept)"; if command -v tmux >/dev/null; then tmux -L ux -f /dev/null new-session -d -x 100 -y 30 -s ux "$NQ watch 4 --speed 50 --cast $d/w.cast; echo \$? > $d/exit"; sleep 2; tmux -L ux send-keys -t ux C-c; sleep 1; tmux -L ux kill-server 2>/dev/null; echo "[exit $(cat $d/exit)]"; head -c 160 $d/w.cast; echo; wc -l < $d/w.cast; fi
echo "== watch --html"; run watch 6 --html $d/w6.html; ls -l $d/w6.html
rm -rf "$d"
