/*
 * fuzz_envelope: libFuzzer target for the management plane's receive path.
 *
 * Each input is sent as one ZeroMQ frame over an inproc PAIR and read back
 * with msg_recv(), the same function the agent and the controller use on
 * their sockets: size check, protobuf-c decoding, version and body checks.
 * A decoded envelope is walked (every body's name and strings touched) and
 * freed.  The target asserts the contract: 0 with an envelope, or -2 with
 * no envelope and errno EBADMSG or EPROTONOSUPPORT; nothing else, never a
 * crash or leak (ASan/UBSan).
 *
 *   make -C . ... see tests/check.sh: clang -fsanitize=fuzzer,address,...
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zmq.h>

#include "msg.h"

static void *ctx, *tx, *rx;

static void
setup(void)
{
	ctx = zmq_ctx_new();
	tx = zmq_socket(ctx, ZMQ_PAIR);
	rx = zmq_socket(ctx, ZMQ_PAIR);
	if (tx == NULL || rx == NULL || zmq_bind(rx, "inproc://fuzz") != 0 ||
	    zmq_connect(tx, "inproc://fuzz") != 0)
		abort();
}

/* Touch what a dispatcher would read, so that ASan sees bad pointers. */
static size_t
walk(const Hoplab__Envelope *env)
{
	size_t n = strlen(env->sender) + strlen(msg_body_name(env->body_case));

	if (env->body_case == HOPLAB__ENVELOPE__BODY_RESULT_BATCH) {
		size_t i;

		n += strlen(env->result_batch->run_id);
		for (i = 0; i < env->result_batch->n_flows; i++)
			n += strlen(env->result_batch->flows[i]->name);
	} else if (env->body_case == HOPLAB__ENVELOPE__BODY_ERROR)
		n += strlen(env->error->text);
	else if (env->body_case == HOPLAB__ENVELOPE__BODY_HELLO)
		n += strlen(env->hello->controller);
	else if (env->body_case == HOPLAB__ENVELOPE__BODY_HOST_QUERY) {
		size_t i;

		for (i = 0; i < env->host_query->n_ifaces; i++)
			n += strlen(env->host_query->ifaces[i]);
	} else if (env->body_case == HOPLAB__ENVELOPE__BODY_HOST_REPORT) {
		const Hoplab__HostReport *hr = env->host_report;
		size_t i, k;

		n += strlen(hr->kernel) + strlen(hr->cpu_model) +
		    strlen(hr->commit) + (hr->cpu != NULL ? hr->cpu->ncpus : 0);
		for (i = 0; i < hr->n_ifaces; i++) {
			n += strlen(hr->ifaces[i]->name) +
			    strlen(hr->ifaces[i]->qdisc);
			for (k = 0; k < hr->ifaces[i]->n_offloads; k++)
				n += strlen(hr->ifaces[i]->offloads[k]->name);
		}
	}
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Hoplab__Envelope *env = NULL;
	zmq_pollitem_t pi;
	char err[256];
	int rc;

	if (ctx == NULL)
		setup();
	if (zmq_send(tx, data, size, 0) != (int)size)
		abort();
	pi.socket = rx;
	pi.events = ZMQ_POLLIN;
	/* libFuzzer's -timeout is a SIGALRM every timeout / 2 + 1 s */
	while ((rc = zmq_poll(&pi, 1, 1000)) == -1 && errno == EINTR)
		;
	if (rc != 1)
		abort();
	rc = msg_recv(rx, NULL, NULL, &env, err, sizeof(err));
	if (rc == 0) {
		if (env == NULL || env->version != HOPLAB_PROTO_VERSION)
			abort();
		(void)walk(env);
		msg_free(env);
	} else if (rc != -2 || env != NULL ||
	    (errno != EBADMSG && errno != EPROTONOSUPPORT))
		abort();
	return 0;
}
