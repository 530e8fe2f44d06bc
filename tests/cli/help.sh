#!/usr/bin/env bash
# The command line is a contract (DESIGN.md, "Command line"): `hexbattle --help`
# starts with it exactly, line for line, on stdout with status 0. The copy
# below is DESIGN.md's block; change both together.
source "$(dirname "$0")/lib/assert.bash"

cat >"$TMP/contract" <<'CONTRACT'
usage:
hexbattle [MAP]                              play MAP (default: the bundled sample battle)
hexbattle edit [MAP]                         editor mode (new map when MAP is absent)
hexbattle project [MAP]                      table projection: player view, fullscreen
hexbattle render MAP --out F.png [--size WxH] [--overlay KIND[:ARGS]]... [--view FACTION] [--hex-mm MM --dpi N]
hexbattle resume SAVE                        go on with a saved battle
hexbattle replay SAVE [--events]             play a saved battle back (or print its event log)
hexbattle query MAP distance C,R C,R         {"hexes":n,"feet":n}
hexbattle query MAP los C,R C,R              {"visible":bool,"cover":"none|light|heavy|total","hexes":n}
hexbattle query MAP reach ID [--dash]        {"id":s,"budget_ft":n,"hexes":[{"at":[c,r],"cost_ft":n},...]}
hexbattle query MAP path ID C,R              {"reachable":bool,"cost_ft":n,"path":[[c,r],...]}
hexbattle query MAP threat ID                {"id":s,"reach_ft":n,"hexes":[[c,r],...]}
hexbattle query MAP flanking ATTACKER TARGET {"flanking":bool,"partners":[id,...]}
hexbattle query MAP reach ID --mode M        the same, for one move mode of the ruleset
hexbattle simulate MAP --seed N [--max-rounds R] [--save F]   JSON Lines events; last line {"event":"end",...}
hexbattle odds MAP|SAVE [--runs N] [--seed S] [--threads T]   {"runs":n,"sides":{S:{"win":p,"ci":[lo,hi]}},"none":p,"rounds":{"mean":x,"sd":x},"defeated":{ID:p},"ms":n}
hexbattle convert IN OUT                     map formats by extension: .json (hexbattle), .tmj, .tmx (Tiled)
hexbattle serve MAP|SAVE [--port N]          share the battle with players' devices on the local network
hexbattle bench [--quick]                    performance figures as JSON
hexbattle --help | --version
CONTRACT

"$HB" --help >"$TMP/help"
check help_exit_0 test $? -eq 0
head -n "$(wc -l <"$TMP/contract")" "$TMP/help" >"$TMP/head"
check help_starts_with_the_contract cmp -s "$TMP/contract" "$TMP/head"
cmp -s "$TMP/contract" "$TMP/head" || diff "$TMP/contract" "$TMP/head"
# Every command the contract names is one the program takes: none of them is
# taken for a map file name.
for cmd in edit project render resume replay query simulate odds convert serve bench; do
    "$HB" "$cmd" --no-such-option "$TMP/none.json" >/dev/null 2>"$TMP/err"
    check "command_${cmd}_known" bash -c '! grep -q "neither a command" "$0"' "$TMP/err"
done

finish
