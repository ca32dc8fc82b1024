#!/bin/sh
# usage: common/need.sh NAME
# Checks for NAME of common/mk/packages.txt; when it is missing, installs its Debian
# packages if we are root with apt-get, else prints the one command that installs them.
here=$(dirname "$0")
line=$(awk -v name="$1" '!/^#/ && $1 == name' "$here/mk/packages.txt")
[ -n "$line" ] || { echo "need.sh: $1 is not in common/mk/packages.txt" >&2; exit 2; }
check=$(echo "$line" | awk '{ print $2 }')
pkgs=$(echo "$line" | awk '{ for (i = 4; i <= NF; i++) printf "%s ", $i }')

there() {
    case $check in
    cmd:*) command -v "${check#cmd:}" ;;
    c:*) printf '#include <stdarg.h>\n#include <stddef.h>\n#include <setjmp.h>\n#include <%s>\n' \
        "${check#c:}" | ${CC:-gcc} -E -x c - ;;
    c++:*) printf '#include <%s>\n' "${check#c++:}" | ${CXX:-g++} -E -x c++ - ;;
    tex:*) kpsewhich "${check#tex:}" ;;
    # Debian's python3 too, where another (pyenv, a virtual environment) comes first
    py:*) python3 -c "import ${check#py:}" || /usr/bin/python3 -c "import ${check#py:}" ;;
    race:*) "$here/cpu/${check#race:}" ;;
    esac
} >/dev/null 2>&1

there && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing $1 (Debian: $pkgs)"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $pkgs; } \
        >/dev/null 2>&1 && there && exit 0
fi
echo "missing $1: install it with: sudo apt-get install $pkgs" >&2
exit 1
