#!/bin/sh
# Remove Struggle Desktop as install.sh installed it for the current user.
#
#     ~/.local/lib/struggle-desktop/uninstall.sh      (or ./uninstall.sh from the tarball)
#
# It removes the files listed in ~/.local/lib/struggle-desktop/installed-files.txt and the
# program's folder, nothing else: the command's link ~/.local/bin/struggle-desktop only while
# it still points at this program (another installer may have taken the name since). Saved games, autosaves and settings stay where the program
# keeps them (~/.local/share/struggle_desktop, ~/.config/struggle_desktop); remove those by
# hand if you want them gone too.
set -eu

data_home=${XDG_DATA_HOME:-$HOME/.local/share}
lib_home=$HOME/.local/lib/struggle-desktop
program=$lib_home/struggle-desktop
link=$HOME/.local/bin/struggle-desktop
manifest=$lib_home/installed-files.txt

# quoted PATH: PATH as one shell word, as the messages print paths
quoted() {
    printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# ours PATH: whether PATH, listed in the manifest, is still what install.sh put there
ours() {
    if [ "$1" = "$link" ]; then
        [ -L "$1" ] && [ "$(readlink "$1")" = "$program" ]
    else
        [ -L "$1" ] || [ -f "$1" ]
    fi
}

if [ ! -f "$manifest" ]; then
    echo "error: Struggle Desktop is not installed here (no $(quoted "$manifest"))" >&2
    exit 2
fi
while IFS= read -r path; do
    case $path in
        "$HOME"/*) ;;
        *) echo "note: $(quoted "$path") is outside your home folder; left as it is" >&2; continue ;;
    esac
    if ours "$path"; then
        rm -f "$path"
    elif [ "$path" = "$link" ] && [ -L "$path" ]; then
        echo "note: $(quoted "$link") now points elsewhere (another installation?); left as it is" >&2
    fi
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
echo "Struggle Desktop is removed. Your saved games and settings are kept in"
echo "$(quoted "$data_home/struggle_desktop") and $(quoted "${XDG_CONFIG_HOME:-$HOME/.config}/struggle_desktop")."

