#!/bin/sh
# Install struggle_desktop for the current user, from the unpacked tarball this script is in.
#
#     ./install.sh
#
# Needs no root and no Python. It puts:
#   the program          in ~/.local/lib/struggle-desktop/ (replaced whole on an upgrade)
#   the command          ~/.local/bin/struggle-desktop (a link to the program)
#   the menu entries     in ~/.local/share/applications/
#   the icons            in ~/.local/share/icons/hicolor/
#   the save-file type   in ~/.local/share/mime/ (a double-click on a .sgsave opens it)
#   the software-centre description in ~/.local/share/metainfo/
# ($XDG_DATA_HOME replaces ~/.local/share when it is set.) Every file it writes is listed in
# ~/.local/lib/struggle-desktop/installed-files.txt, which uninstall.sh reads: it removes those
# and nothing else. Saved games and settings live elsewhere and are never touched.
set -eu

app_id=io.github.struggledesktop.StruggleDesktop
here=$(cd "$(dirname "$0")" && pwd)
data_home=${XDG_DATA_HOME:-$HOME/.local/share}
bin_home=$HOME/.local/bin
lib_home=$HOME/.local/lib/struggle-desktop
program=$lib_home/struggle-desktop

if [ ! -x "$here/struggle-desktop/struggle-desktop" ]; then
    echo "error: $here/struggle-desktop/struggle-desktop is missing: unpack the whole tarball and run install.sh from it" >&2
    exit 2
fi
# The menu entries name the program by its full path; the desktop-entry format (and the sed
# below) would need these characters escaped, and a home folder almost never holds them.
case $program in
    *'"'* | *'`'* | *'$'* | *'\'* | *'|'* | *'&'* )
        echo "error: cannot write a menu entry for a program under $lib_home (it holds one of \" \` \$ \\ | &)" >&2
        exit 2 ;;
esac

# The program: copied beside the old one, then swapped in, so a failed copy leaves the old
# installation working.
mkdir -p "$(dirname "$lib_home")"
rm -rf "$lib_home.new"
cp -R "$here/struggle-desktop" "$lib_home.new"
cp "$here/uninstall.sh" "$lib_home.new/uninstall.sh"
rm -rf "$lib_home.old"
if [ -e "$lib_home" ]; then mv "$lib_home" "$lib_home.old"; fi
mv "$lib_home.new" "$lib_home"
rm -rf "$lib_home.old"
manifest=$lib_home/installed-files.txt
: > "$manifest"

put() {  # put SOURCE TARGET: copy one file, readable by all, and list it
    mkdir -p "$(dirname "$2")"
    cp "$1" "$2.part"
    chmod 644 "$2.part"
    mv "$2.part" "$2"
    echo "$2" >> "$manifest"
}

# The command on PATH, unless something else already answers to that name there (a copy
# installed with pip, say): then it is left alone and the full path is printed below.
mkdir -p "$bin_home"
link=$bin_home/struggle-desktop
if [ -L "$link" ] || [ ! -e "$link" ]; then
    ln -sfn "$program" "$link"
    echo "$link" >> "$manifest"
    command_name=struggle-desktop
else
    echo "note: $link exists and is not this program's link; it is left as it is" >&2
    command_name=$program
fi

for entry in "$app_id.desktop" "$app_id.Open.desktop"; do
    target=$data_home/applications/$entry
    mkdir -p "$(dirname "$target")"
    sed -e "s|^Exec=struggle-desktop|Exec=\"$program\"|" \
        -e "s|^TryExec=struggle-desktop\$|TryExec=$program|" \
        "$here/share/applications/$entry" > "$target.part"
    chmod 644 "$target.part"
    mv "$target.part" "$target"
    echo "$target" >> "$manifest"
done
put "$here/share/metainfo/$app_id.metainfo.xml" "$data_home/metainfo/$app_id.metainfo.xml"
put "$here/share/mime/packages/$app_id.xml" "$data_home/mime/packages/$app_id.xml"
(cd "$here/share/icons" && find . -type f | sed "s|^\./||") | while read -r icon; do
    put "$here/share/icons/$icon" "$data_home/icons/$icon"
done

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

echo "struggle_desktop is installed in $lib_home"
echo "Start it from the applications menu, or with: $command_name"
case ":$PATH:" in
    *":$bin_home:"*) ;;
    *) echo "($bin_home is not on your PATH: the menu entry works; in a terminal use $program)" ;;
esac
echo "To remove it: $lib_home/uninstall.sh"
