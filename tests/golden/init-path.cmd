# Without reflexion-rules on PATH, init registers this program by its
# full path (quoted for the shell) and says so; a later init with it on
# PATH does not add the bare name beside it.
mkdir -p "my bin" bin proj
cp "$RR" "my bin/reflexion-rules"
PATH=/usr/bin:/bin "$PWD/my bin/reflexion-rules" init --project-dir proj
echo "status $?"
grep -m1 '"command": ' proj/.claude/settings.json
ln -s "$RR" bin/reflexion-rules
PATH=$PWD/bin:/usr/bin:/bin reflexion-rules init --project-dir proj
echo "status $?"
grep -c 'reflexion-rules' proj/.claude/settings.json
