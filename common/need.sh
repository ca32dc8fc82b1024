#!/bin/sh
# usage: common/need.sh WHAT PACKAGE CHECK...
# Runs the CHECK command; when it fails, installs the Debian PACKAGE if we are root with
# apt-get, else prints the one command that installs it and fails.
what=$1 pkg=$2
shift 2
"$@" >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing $what (Debian package $pkg)"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkg; } \
        >/dev/null 2>&1 && "$@" >/dev/null 2>&1 && exit 0
fi
echo "missing $what: install it with: sudo apt-get install $pkg" >&2
exit 1
