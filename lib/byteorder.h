/*
 * byteorder: big-endian (network byte order) loads and stores at any
 * alignment, for wire formats: the probe header, packet headers, the
 * generator's control messages.  Little-endian ones too, for the two file
 * formats that chose that order: the link emulator's truth records
 * (truthfile.h) and the generator's per-packet records.
 *
 * Each goes byte by byte through a uint8_t pointer, so it is correct on
 * any host and at any offset in a frame; compilers turn the pattern into
 * one load or store and a bswap.  Never cast a frame pointer to a wider
 * type instead (alignment, strict aliasing).
 */
#ifndef HOPLAB_BYTEORDER_H
#define HOPLAB_BYTEORDER_H

#include <stdint.h>

static inline uint16_t
be16_load(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline uint32_t
be32_load(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t
be64_load(const uint8_t *p)
{
	return (uint64_t)be32_load(p) << 32 | be32_load(p + 4);
}

static inline void
be16_store(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void
be32_store(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void
be64_store(uint8_t *p, uint64_t v)
{
	be32_store(p, (uint32_t)(v >> 32));
	be32_store(p + 4, (uint32_t)v);
}

static inline uint16_t
le16_load(const uint8_t *p)
{
	return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

static inline uint32_t
le32_load(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static inline uint64_t
le64_load(const uint8_t *p)
{
	return (uint64_t)le32_load(p) | (uint64_t)le32_load(p + 4) << 32;
}

static inline void
le16_store(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void
le32_store(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void
le64_store(uint8_t *p, uint64_t v)
{
	le32_store(p, (uint32_t)v);
	le32_store(p + 4, (uint32_t)(v >> 32));
}

#endif
