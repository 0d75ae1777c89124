#!/bin/sh
# Writes a C file that defines `const char NAME[]` holding FILE's text, so the
# binary can print the schema it was built with.
set -eu
name=$1
file=$2
echo "/* generated from $file by scripts/embed.sh: do not edit */"
echo "const char $name[] ="
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$file"
echo ";"
