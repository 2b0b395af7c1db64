#!/bin/sh
# Install Struggle Desktop for the current user, from the unpacked tarball this script is in.
#
#     ./install.sh
#
# Needs no root and no Python. It puts:
#   the program          in ~/.local/lib/struggle-desktop/ (replaced whole on an upgrade)
#   the command          ~/.local/bin/struggle-desktop (a link to the program), unless that
#                        name is already taken by something else (a copy installed with pipx,
#                        say): then that is kept and the program's full path is printed instead
#   the menu entries     in ~/.local/share/applications/
#   the icons            in ~/.local/share/icons/hicolor/
#   the save-file type   in ~/.local/share/mime/ (a double-click on a .sgsave opens it)
#   the software-centre description in ~/.local/share/metainfo/
# ($XDG_DATA_HOME replaces ~/.local/share when it is set.)
#
# Every file it writes is listed in ~/.local/lib/struggle-desktop/installed-files.txt, which
# uninstall.sh reads: it removes those and nothing else. An upgrade starts from the list the
# installed release left, adds what it writes, and at the end removes the files the old
# release put in place that this one no longer ships; if it stops half-way, the list still
# names the old files as well as the new ones. Saved games and settings live elsewhere and are
# never touched.
set -eu

app_id=io.github.struggledesktop.StruggleDesktop
here=$(cd "$(dirname "$0")" && pwd)
data_home=${XDG_DATA_HOME:-$HOME/.local/share}
bin_home=$HOME/.local/bin
lib_home=$HOME/.local/lib/struggle-desktop
program=$lib_home/struggle-desktop
link=$bin_home/struggle-desktop
manifest=$lib_home/installed-files.txt

# quoted PATH: PATH as one shell word, so that a printed command can be pasted as it is
quoted() {
    printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

if [ ! -x "$here/struggle-desktop/struggle-desktop" ]; then
    echo "error: $(quoted "$here/struggle-desktop/struggle-desktop") is missing: unpack the whole tarball and run install.sh from it" >&2
    exit 2
fi
# The list of installed files has one path a line.
newline='
'
case $lib_home$data_home in
    *"$newline"*)
        echo "error: cannot install under a folder whose name holds a line break" >&2
        exit 2 ;;
esac

# ours PATH: whether PATH, listed in a manifest, is still what this program put there. The
# command's link counts only while it points at this program: a link that another installer
# (pipx, pip) has since taken over is theirs.
ours() {
    if [ "$1" = "$link" ]; then
        [ -L "$1" ] && [ "$(readlink "$1")" = "$program" ]
    else
        [ -L "$1" ] || [ -f "$1" ]
    fi
}

# The program: copied beside the old one, then swapped in, so a failed copy leaves the old
# installation working. The new folder starts with the old release's list: until this
# install has finished, the list names both releases' files.
mkdir -p "$(dirname "$lib_home")"
rm -rf "$lib_home.new"
cp -R "$here/struggle-desktop" "$lib_home.new"
cp "$here/uninstall.sh" "$lib_home.new/uninstall.sh"
previous=$lib_home.new/previous-files.txt
if [ -f "$manifest" ]; then cp "$manifest" "$previous"; else : > "$previous"; fi
cp "$previous" "$lib_home.new/installed-files.txt"
rm -rf "$lib_home.old"
if [ -e "$lib_home" ]; then mv "$lib_home" "$lib_home.old"; fi
mv "$lib_home.new" "$lib_home"
rm -rf "$lib_home.old"
previous=$lib_home/previous-files.txt
written=$lib_home/written-files.txt
: > "$written"

listed() {  # listed PATH: record a file this install wrote, in both lists
    echo "$1" >> "$written"
    if ! grep -Fxq -- "$1" "$manifest"; then echo "$1" >> "$manifest"; fi
}

put() {  # put SOURCE TARGET: copy one file, readable by all, and list it
    mkdir -p "$(dirname "$2")"
    cp "$1" "$2.part"
    chmod 644 "$2.part"
    mv "$2.part" "$2"
    listed "$2"
}

# The command on PATH, unless something else already answers to that name there: then that
# is left alone and the full path is printed below.
mkdir -p "$bin_home"
if ours "$link" || { [ ! -e "$link" ] && [ ! -L "$link" ]; }; then
    ln -sfn "$program" "$link"
    listed "$link"
    command_name=struggle-desktop
else
    echo "note: $(quoted "$link") is not this program's (another installation of struggle-desktop?); it is kept as it is" >&2
    command_name=$(quoted "$program")
fi

# The menu entries name the program by its full path. In Exec it is one argument in double
# quotes (the Desktop Entry Specification: inside them \ " ` $ take a backslash), with % as
# %%; then Exec and TryExec, as string values, write \ as \\ and a tab as \t.
as_string() {
    printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e "s/$(printf '\t')/\\\\t/g"
}
exec_program=$(as_string "\"$(printf '%s' "$program" | sed -e 's/[\\"`$]/\\&/g' -e 's/%/%%/g')\"")
try_exec=$(as_string "$program")
export exec_program try_exec
for entry in "$app_id.desktop" "$app_id.Open.desktop"; do
    target=$data_home/applications/$entry
    mkdir -p "$(dirname "$target")"
    awk '/^Exec=struggle-desktop( |$)/ { sub(/^Exec=struggle-desktop/, ""); print "Exec=" ENVIRON["exec_program"] $0; next }
         /^TryExec=struggle-desktop$/ { print "TryExec=" ENVIRON["try_exec"]; next }
         { print }' "$here/share/applications/$entry" > "$target.part"
    chmod 644 "$target.part"
    mv "$target.part" "$target"
    listed "$target"
done
put "$here/share/metainfo/$app_id.metainfo.xml" "$data_home/metainfo/$app_id.metainfo.xml"
put "$here/share/mime/packages/$app_id.xml" "$data_home/mime/packages/$app_id.xml"
(cd "$here/share/icons" && find . -type f | sed "s|^\./||") > "$lib_home/icons.txt"
while IFS= read -r icon; do
    put "$here/share/icons/$icon" "$data_home/icons/$icon"
done < "$lib_home/icons.txt"
rm -f "$lib_home/icons.txt"

# Done: what the old release put in place and this one did not write goes, and the list
# becomes this release's.
while IFS= read -r path; do
    if grep -Fxq -- "$path" "$written"; then continue; fi
    case $path in
        "$HOME"/*) if ours "$path"; then rm -f "$path"; fi ;;
    esac
done < "$previous"
mv "$written" "$manifest"
rm -f "$previous"

# The desktop's caches, where their tools are installed (they are on every desktop that
# reads these folders).
if command -v update-mime-database >/dev/null 2>&1; then
    update-mime-database "$data_home/mime" || true
fi
if command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database "$data_home/applications" || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1; then
    gtk-update-icon-cache --quiet --force --ignore-theme-index "$data_home/icons/hicolor" || true
fi

echo "Struggle Desktop is installed in $(quoted "$lib_home")"
echo "Start it from the applications menu, or with: $command_name"
case ":$PATH:" in
    *":$bin_home:"*) ;;
    *) [ "$command_name" = struggle-desktop ] &&
           echo "($(quoted "$bin_home") is not on your PATH: the menu entry works; in a terminal use $(quoted "$program"))" ;;
esac
echo "To remove it: $(quoted "$lib_home/uninstall.sh")"
