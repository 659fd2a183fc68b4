/*
 * The fast path's BPF object (fastpath.bpf.c, built by the Makefile into
 * build/router/bpf/fastpath.bpf.o), linked into hoplab-router as bytes
 * between fastpath_bpf_obj and fastpath_bpf_obj_end: router/fastpath.c
 * hands them to bpf_object__open_mem(), so no file is looked up at run
 * time and the program always matches the binary.
 */
	.section .rodata
	.global fastpath_bpf_obj
	.global fastpath_bpf_obj_end
	.balign 8
fastpath_bpf_obj:
	.incbin "build/router/bpf/fastpath.bpf.o"
fastpath_bpf_obj_end:
	.section .note.GNU-stack,"",@progbits
