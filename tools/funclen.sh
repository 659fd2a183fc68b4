#!/bin/sh
# funclen.sh DIR...: the length of every function in the .c files below
# DIR, longest first: "LINES FILE:LINE NAME", LINES counting the body
# between the opening and the closing brace.  It relies on KNF (style(9),
# .clang-format): the function's name at column 0, its braces at column
# 0.  STYLE.md asks for functions that fit on a screen.
#
#   sh tools/funclen.sh agent controller generator router link lib | head -20
find "$@" -name '*.c' | sort | xargs awk '
FNR==1 { name="" ; inb=0 }
/^[A-Za-z_][A-Za-z0-9_]*\(/ && !inb { n=$0; sub(/\(.*/,"",n); name=n }
/^\{/ && name!="" { inb=1; start=FNR; next }
/^\}/ && inb { print FNR-start-1, FILENAME ":" start, name; inb=0; name="" }
' | sort -rn
