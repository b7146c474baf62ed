#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make demo and make test on a fresh Debian 12 machine: a minbase root (debootstrap), with only
# git and make installed, as root, in a chroot. What a clone on a new machine meets, and what
# a developer's machine or CI's, which keep what was installed by hand, cannot show.
#
#   tools/fresh-root-check.sh [options] [BRANCH | PATH]
#
# BRANCH is a branch (or tag) of this repository; PATH is another clone or worktree, whose
# checked-out commit is used. Default: this repository's HEAD. Only committed work is checked.
#
#   --base DIR     the pristine root (default /work/fresh-root): debootstrap makes it once and
#                  it is never written to again; each check runs on an overlay of it
#   --run DIR      the check's own files (default DIR of --base with .run): the overlay's
#                  upper layer, its merged root, the logs; emptied at the start of a check
#   --goals LIST   the make goals run in turn, each on its own (default "demo test"; a goal
#                  may come twice: "deps deps doctor demo test" times a second make deps)
#
# Needs root, debootstrap (apt-get install debootstrap), overlayfs and the network this
# machine's apt and pip use: its apt sources and proxy settings, CA certificates, pip
# configuration and PIP_* variables are copied in. Prints each step's wall time (and keeps
# them in RUN/times.txt); the logs are RUN/<n>-<goal>.log. Exit status 0 when every goal passed.
set -euo pipefail

base=/work/fresh-root
run=
goals="demo test"
source=
while (($#)); do
  case $1 in
    --base) base=${2:?--base needs a directory}; shift 2 ;;
    --run) run=${2:?--run needs a directory}; shift 2 ;;
    --goals) goals=${2:?--goals needs a list}; shift 2 ;;
    -h|--help) awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    -*) echo "fresh-root-check: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) [[ -z $source ]] || { echo "fresh-root-check: one BRANCH or PATH only" >&2; exit 2; }
       source=$1; shift ;;
  esac
done
run=${run:-$base.run}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)

die() { echo "fresh-root-check: $*" >&2; exit 1; }
[[ $(id -u) == 0 ]] || die "needs root (debootstrap, mount, chroot)"

# The commit to check, and the repository it is in.
if [[ -n $source && -d $source ]]; then
  repo=$source ref=HEAD
else
  repo=$here ref=${source:-HEAD}
fi
commit=$(git -C "$repo" rev-parse --verify -q "$ref^{commit}") || die "$ref: not a branch of $repo"
refname=$(git -C "$repo" rev-parse --symbolic-full-name "$ref")  # refs/heads/..., or HEAD
[[ -n $refname ]] || die "$ref: give a branch, a tag or a path, not a bare commit"
if [[ -n $(git -C "$repo" status --porcelain --untracked-files=no 2>/dev/null) && $ref == HEAD ]]; then
  echo "fresh-root-check: $repo has uncommitted changes; they are not checked" >&2
fi

# The Debian mirror this machine's apt uses (deb822 .sources or one-line sources.list).
mirror() {
  local uri
  uri=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
        grep -v security | head -n1 || true)
  [[ -n $uri ]] || uri=$(sed -E -n 's/^deb +(\[[^]]*\] +)?([^ ]+) +bookworm .*/\2/p' \
                         /etc/apt/sources.list 2>/dev/null | head -n1 || true)
  echo "${uri:-http://deb.debian.org/debian}"
}

if [[ ! -e $base/etc/debian_version ]]; then
  command -v debootstrap >/dev/null || die "no debootstrap: apt-get install debootstrap"
  echo "== debootstrap --variant=minbase bookworm $base $(mirror)"
  debootstrap --variant=minbase bookworm "$base" "$(mirror)"
fi
[[ $(cut -d. -f1 "$base/etc/debian_version") == 12 ]] || die "$base is not Debian 12"

# Mounts, undone in reverse order however the script ends. A program the check started and
# left running inside the root (a stray emulator) would keep it busy: those, and only those
# (their root is this chroot), are ended first.
mounts=()
root=
# shellcheck disable=SC2317  # called by the trap
cleanup() {
  local pid i
  if [[ -n $root ]]; then
    for pid in /proc/[0-9]*; do
      if [[ $(readlink "$pid/root" 2>/dev/null) == "$root" ]]; then
        kill -9 "${pid#/proc/}" 2>/dev/null || true
      fi
    done
  fi
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" || true
  done
}
trap cleanup EXIT
mnt() {  # mount ... TARGET, remembered for cleanup
  mount "$@"
  mounts+=("${!#}")
}

root=$run/root
# A check killed before its cleanup leaves its mounts: never delete through them (/dev!).
if grep -q " $run/" /proc/mounts; then
  die "something is mounted under $run (another check running, or one killed): see
  grep ' $run/' /proc/mounts   and umount those, deepest first"
fi
rm -rf --one-file-system "$run"
mkdir -p "$run/upper" "$run/work" "$root"
mnt -t overlay overlay -o "lowerdir=$base,upperdir=$run/upper,workdir=$run/work" "$root"

# This machine's network settings, so that apt and pip reach what they reach here.
rm -f "$root/etc/apt/sources.list"
[[ ! -e /etc/apt/sources.list ]] || cp /etc/apt/sources.list "$root/etc/apt/"
for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [[ -e $f ]] && cp "$f" "$root/etc/apt/sources.list.d/"
done
for f in /etc/apt/apt.conf.d/*; do  # proxies and other Acquire settings only
  [[ -f $f ]] && grep -q '^[[:space:]]*Acquire' "$f" && cp "$f" "$root/etc/apt/apt.conf.d/"
done
for f in /usr/share/keyrings/*.gpg; do
  [[ -e $root$f ]] || cp "$f" "$root/usr/share/keyrings/"
done
mkdir -p "$root/etc/ssl" "$root/usr/local/share"
cp -a /etc/ssl/certs "$root/etc/ssl/"
[[ ! -d /usr/local/share/ca-certificates ]] || cp -a /usr/local/share/ca-certificates "$root/usr/local/share/"
[[ ! -e /etc/pip.conf ]] || cp /etc/pip.conf "$root/etc/"
for d in .config/pip .pip; do
  [[ ! -d $HOME/$d ]] || { mkdir -p "$root/root/$d"; cp -a "$HOME/$d/." "$root/root/$d/"; }
done
cp /etc/resolv.conf "$root/etc/resolv.conf"
printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"

mnt -t proc proc "$root/proc"
mnt -t sysfs sysfs "$root/sys"
mnt --bind /dev "$root/dev"
mnt --bind /dev/pts "$root/dev/pts"
mnt -t tmpfs tmpfs "$root/dev/shm"

# The commit, copied in as a bundle: the root's git clones it as a developer clones.
git -C "$repo" bundle create -q "$root/tmp/tacet.bundle" "$refname" || die "cannot bundle $ref"

# A clean environment, as on a new machine, with this one's pip and proxy settings.
env_vars=(HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
while IFS= read -r var; do env_vars+=("$var"); done < <(env | grep -E '^(PIP_|https?_proxy=|HTTPS?_PROXY=|no_proxy=|NO_PROXY=)' || true)
in_root() { chroot "$root" /usr/bin/env -i "${env_vars[@]}" bash -euo pipefail -c "$1"; }

times=()
step() {  # NAME LOG COMMAND: run, time, report
  local name=$1 log=$2 start status=0
  start=$(date +%s)
  echo "== $name (log: $log)"
  in_root "$3" >"$log" 2>&1 </dev/null || status=$?
  local took=$(($(date +%s) - start))
  times+=("$(printf '%-34s %5d s  %s' "$name" "$took" "$([[ $status == 0 ]] && echo passed || echo "FAILED ($status)")")")
  echo "${times[-1]}"
  tail -n 3 "$log"
  return $status
}

echo "== checking $commit ($(git -C "$repo" log -1 --format=%s "$commit" | cut -c1-70))"
echo "== root: overlay of $base at $root"
failed=0
step "apt-get install git make" "$run/setup.log" \
  'apt-get -q update && DEBIAN_FRONTEND=noninteractive apt-get -q install -y git make' || failed=1
((failed)) || step "git clone" "$run/clone.log" \
  "git clone -q -n /tmp/tacet.bundle /root/tacet && git -C /root/tacet checkout -q $commit" || failed=1
n=0
for goal in $goals; do
  ((failed)) && break
  n=$((n + 1))
  step "make $goal" "$run/$n-$goal.log" "cd /root/tacet && make $goal" || failed=1
done

echo
echo "== $commit on a fresh Debian 12 root ($(nproc) cores):"
printf '%s\n' "${times[@]}" | tee "$run/times.txt"
exit $failed
