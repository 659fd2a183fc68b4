/*
 * xdp_pass: an XDP program that passes every frame, for bench/
 * router_rate.sh's SINK_RX=xdp: a veth delivers a frame that an XDP
 * program of its peer redirects into it only when it polls with NAPI,
 * which an XDP program of its own turns on, as GRO does (docs/router.md,
 * "The fast path").  Built by the bench with clang -target bpf.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int
xdp_pass(struct xdp_md *ctx)
{
	(void)ctx;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
