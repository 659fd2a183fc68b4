# sshlab.sh: a "machine" with a real sshd for the deploy scenarios
# (t_deploy.sh, t_deploy_deb.sh), sourced after lib.sh.
#
# The scenario sets NS (namespace), VETH (root end), ADDR (the machine's
# address, 198.19.K.10), ROOT_ADDR (198.19.K.1), PORT and T (its temp
# folder), then calls sshlab_up: NS gets mgmt0 with ADDR/24, the root end
# ROOT_ADDR/24, and an OpenSSH sshd with its own config, host key,
# authorized key ($T/id, for ssh -i) and pid file in T listens only on
# ADDR:PORT, started and killed by PID (sshlab_sshd starts another one,
# e.g. on another port in a mount namespace of its own).  The namespace
# shares the file system with this machine.  sshlab_cleanup, registered
# by sshlab_up with at_exit, kills every process left in NS and deletes
# NS and VETH.

SSHD=/usr/sbin/sshd
SSHLAB_PIDS=
SSHLAB_MADE_RUN_SSHD=0

sshlab_cleanup()
{
	for p in $SSHLAB_PIDS; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	if [ -e "/run/netns/$NS" ]; then
		for p in $(ip netns pids "$NS" 2>/dev/null); do
			kill -KILL "$p" 2>/dev/null
		done
		ip netns del "$NS"
	fi
	ip link del dev "$VETH" 2>/dev/null
	[ "$SSHLAB_MADE_RUN_SSHD" = 1 ] && rmdir /run/sshd 2>/dev/null
}

# sshlab_sshd NAME PORT [WRAPPER...]: an sshd on ADDR:PORT in NS, run
# through WRAPPER (a command that ends by running its arguments); its PID
# in SSHD_PID.  Waits until it listens.
sshlab_sshd()
{
	_n=$1
	_p=$2
	shift 2
	sed -e "s/^Port .*/Port $_p/" -e "s|^PidFile .*|PidFile $T/$_n.pid|" \
	    "$T/sshd_config" >"$T/$_n.config"
	ip netns exec "$NS" "$@" "$SSHD" -D -e -f "$T/$_n.config" \
	    2>"$T/$_n.log" &
	SSHD_PID=$!
	SSHLAB_PIDS="$SSHLAB_PIDS $SSHD_PID"
	_i=0
	while ! ip netns exec "$NS" ss -Hltn "sport = :$_p" | grep -q "$ADDR"; do
		_i=$((_i + 1))
		if [ $_i -gt 50 ] || ! kill -0 "$SSHD_PID" 2>/dev/null; then
			sed 's/^/    /' "$T/$_n.log"
			bail "$_n" "sshd did not listen on $ADDR:$_p"
		fi
		sleep 0.1
	done
}

# sshlab_agents_ok VERSION [NAME]: `hoplab agents` (HOPLAB) lists the
# agent at ADDR:7700 with VERSION and ok, over CURVE with the keys in
# $T/keys; the checks are named NAME_exit and NAME_ok (default agents).
sshlab_agents_ok()
{
	cat >"$T/inv.yaml" <<EOF2
controller_key: keys/controller.key
agents:
  - name: $ADDR
    address: $ADDR
    public_key_file: keys/$ADDR.pub
EOF2
	_out=$("$HOPLAB" -i "$T/inv.yaml" agents 2>&1)
	_rc=$?
	echo "$_out" | sed 's/^/    /'
	assert_eq "${2:-agents}_exit" 0 "$_rc"
	assert_match "${2:-agents}_ok" "^$ADDR +$ADDR:7700 +$1 .* ok" "$_out"
}

sshlab_up()
{
	[ -x "$SSHD" ] || bail sshd "no $SSHD; install openssh-server (make deps)"
	at_exit sshlab_cleanup
	ip netns add "$NS" || bail netns "ip netns add $NS failed"
	ip -n "$NS" link set dev lo up
	ip link add name "$VETH" type veth peer name mgmt0 netns "$NS" &&
	    ip addr add "$ROOT_ADDR/24" dev "$VETH" &&
	    ip link set dev "$VETH" up &&
	    ip -n "$NS" addr add "$ADDR/24" dev mgmt0 &&
	    ip -n "$NS" link set dev mgmt0 up || bail veth "cannot build $VETH"

	ssh-keygen -q -t ed25519 -N '' -C hoplab-test-host -f "$T/host_key" &&
	    ssh-keygen -q -t ed25519 -N '' -C hoplab-test-user -f "$T/id" &&
	    cp "$T/id.pub" "$T/authorized_keys" ||
	    bail ssh_keys "ssh-keygen failed"
	if [ ! -d /run/sshd ]; then	# sshd's privilege separation folder
		mkdir -m 0755 /run/sshd && SSHLAB_MADE_RUN_SSHD=1
	fi
	cat >"$T/sshd_config" <<EOF2
Port $PORT
ListenAddress $ADDR
HostKey $T/host_key
PidFile $T/sshd.pid
AuthorizedKeysFile $T/authorized_keys
StrictModes no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
Subsystem sftp /usr/lib/openssh/sftp-server
EOF2
	sshlab_sshd sshd "$PORT"
	pass sshd_listens
}
