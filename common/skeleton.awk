# Turns a solution file into the student's skeleton. Every block
#     /* SOLUTION BEGIN: what the student must write
#      * (the comment may go on over several lines) */
#     ...the solution...
#     /* SOLUTION END */
# becomes the comment alone, "SOLUTION BEGIN:" replaced by "TODO:". Everything else is
# copied as it is, so the skeleton compiles wherever the solution does.
# usage: awk -f common/skeleton.awk solutions/labNN-x/file.cu > labs/labNN-x/file.cu
function die(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; bad = 1; exit 1 }

state == 0 && /SOLUTION END/ { die("SOLUTION END without SOLUTION BEGIN") }
state == 0 && /\/\* SOLUTION BEGIN:/ {
    sub(/SOLUTION BEGIN:/, "TODO:")
    print
    state = /\*\// ? 2 : 1
    blocks++
    next
}
state == 0 { print; next }
state == 1 { print; if (/\*\//) state = 2; next }
state == 2 && /SOLUTION BEGIN/ { die("SOLUTION BEGIN inside a solution block") }
state == 2 && /SOLUTION END/ { state = 0; next }
state == 2 { next }
END {
    if (bad) exit 1
    if (state) { printf "%s: SOLUTION BEGIN without SOLUTION END\n", FILENAME > "/dev/stderr"; exit 1 }
    if (!blocks) { printf "%s: no SOLUTION BEGIN block: nothing for the student to do\n", FILENAME > "/dev/stderr"; exit 1 }
}
