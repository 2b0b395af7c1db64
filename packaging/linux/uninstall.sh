#!/bin/sh
# Remove struggle_desktop as install.sh installed it for the current user.
#
#     ~/.local/lib/struggle-desktop/uninstall.sh      (or ./uninstall.sh from the tarball)
#
# It removes the files listed in ~/.local/lib/struggle-desktop/installed-files.txt and the
# program's folder, nothing else. Saved games, autosaves and settings stay where the program
# keeps them (~/.local/share/struggle_desktop, ~/.config/struggle_desktop); remove those by
# hand if you want them gone too.
set -eu

data_home=${XDG_DATA_HOME:-$HOME/.local/share}
lib_home=$HOME/.local/lib/struggle-desktop
manifest=$lib_home/installed-files.txt

if [ ! -f "$manifest" ]; then
    echo "error: struggle_desktop is not installed here (no $manifest)" >&2
    exit 2
fi
while IFS= read -r path; do
    case $path in
        "$HOME"/*) ;;
        *) echo "note: $path is outside your home folder; left as it is" >&2; continue ;;
    esac
    if [ -L "$path" ] || [ -f "$path" ]; then rm -f "$path"; fi
done < "$manifest"
rm -rf "$lib_home"

if command -v update-mime-database >/dev/null 2>&1 && [ -d "$data_home/mime" ]; then
    update-mime-database "$data_home/mime" || true
fi
if command -v update-desktop-database >/dev/null 2>&1 && [ -d "$data_home/applications" ]; then
    update-desktop-database "$data_home/applications" || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -d "$data_home/icons/hicolor" ]; then
    gtk-update-icon-cache --quiet --force --ignore-theme-index "$data_home/icons/hicolor" || true
fi
echo "struggle_desktop is removed. Your saved games and settings are kept in"
echo "$data_home/struggle_desktop and ${XDG_CONFIG_HOME:-$HOME/.config}/struggle_desktop."
