# Turns a solution file into the student's skeleton. Every block
#     /* SOLUTION BEGIN: what the student must write
#      * (the comment may go on over several lines) */
#     ...the solution...
#     /* SOLUTION END */
# becomes the comment alone, "SOLUTION BEGIN:" replaced by "TODO:". Every block
#     /* GIVEN BEGIN: why the student gets other code here (a planted bug, a slow version to
#      * speed up; the comment may go on over several lines) */
#     ...the solution...
#     //| what the student gets instead, a line each
#     /* GIVEN END */
# becomes its //| lines alone, each without its "//|" and the one space after it (what is
# left of the line, indentation included, stays), and nothing else of the block: no marker,
# no comment, no line of the solution, so the skeleton does not say where the block was. A
# block without //| lines takes the solution's lines out. Everything else is copied as it
# is, so the skeleton compiles wherever the solution does.
# usage: awk -f common/skeleton.awk solutions/labNN-x/file.cu > labs/labNN-x/file.cu
function die(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; bad = 1; exit 1 }

state == 0 && /SOLUTION END/ { die("SOLUTION END without SOLUTION BEGIN") }
state == 0 && /GIVEN END/ { die("GIVEN END without GIVEN BEGIN") }
(state == 0 || state == 2) && /^[ \t]*\/\/\|/ { die("a //| line outside a GIVEN block") }
state == 0 && /\/\* SOLUTION BEGIN:/ {
    sub(/SOLUTION BEGIN:/, "TODO:")
    print
    state = /\*\// ? 2 : 1
    blocks++
    next
}
state == 0 && /\/\* GIVEN BEGIN:/ {
    state = /\*\// ? 4 : 3
    blocks++
    next
}
state == 0 { print; next }
state == 1 { print; if (/\*\//) state = 2; next }
state == 2 && /SOLUTION BEGIN|GIVEN BEGIN/ { die("a BEGIN inside a solution block") }
state == 2 && /SOLUTION END/ { state = 0; next }
state == 2 { next }
state == 3 { if (/\*\//) state = 4; next }
state == 4 && /SOLUTION BEGIN|GIVEN BEGIN|SOLUTION END/ { die("a SOLUTION marker or GIVEN BEGIN inside a GIVEN block") }
state == 4 && /GIVEN END/ { state = 0; next }
state == 4 && /^[ \t]*\/\/\|/ { sub(/\/\/\| ?/, ""); if (/^[ \t]*$/) $0 = ""; print; next }
state == 4 { next }
END {
    if (bad) exit 1
    if (state == 1 || state == 2) { printf "%s: SOLUTION BEGIN without SOLUTION END\n", FILENAME > "/dev/stderr"; exit 1 }
    if (state) { printf "%s: GIVEN BEGIN without GIVEN END\n", FILENAME > "/dev/stderr"; exit 1 }
    if (!blocks) { printf "%s: no SOLUTION BEGIN or GIVEN BEGIN block: nothing for the student to do\n", FILENAME > "/dev/stderr"; exit 1 }
}
