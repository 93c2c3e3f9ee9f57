# import: usage, unreadable and unrecognised files, mixed kinds, a hookify
# file without front matter, and invalid JSON.
$RR import
echo "status $?"
$RR import missing.json
echo "status $?"
printf 'hello\n' > notes.txt
$RR import notes.txt
echo "status $?"
printf 'just text\n' > hookify.x.local.md
$RR import hookify.x.local.md
echo "status $?"
printf '{"skills": ' > skill-rules.json
$RR import skill-rules.json
echo "status $?"
printf -- '---\nname: a\npattern: x\n' > hookify.open.local.md
$RR import hookify.open.local.md
echo "status $?"
$RR import "$FIX/import/skill-rules.json" "$FIX/hookify/hookify.block-rm.local.md" > /dev/null
echo "status $?"
