/* SPDX-License-Identifier: MIT */
/*
 * CMSIS-RTOS2 memory pools on Tacet block pools (tacet/block_pool.h): O(1) allocation and
 * free, waiters served in priority order, a freed block handed straight to the first waiter.
 */
#include "os2.h"

static tc_os2_memory_pool *pool(osMemoryPoolId_t id)
{
  tc_os2_memory_pool *mp = id;
  return mp != NULL && mp->magic == OS2_MAGIC_POOL ? mp : NULL;
}

osMemoryPoolId_t osMemoryPoolNew(uint32_t block_count, uint32_t block_size, const osMemoryPoolAttr_t *attr)
{
  if (os2_refused("osMemoryPoolNew") || os2_in_isr() || !os2_may_create()) return NULL;
  if (os2.state == osKernelInactive || block_count == 0u || block_size == 0u) return NULL;
  size_t need = TC_OS2_MEMORY_POOL_MEM_SIZE(block_count, block_size);
  void *mem = attr != NULL ? attr->mp_mem : NULL;
  uint32_t mem_size = attr != NULL ? attr->mp_size : 0u;
  uint8_t *blocks = NULL;
  if (mem != NULL) {
    /* The caller's memory: it must hold every block after alignment to 8. */
    uintptr_t lead = (8u - ((uintptr_t)mem & 7u)) & 7u;
    if (mem_size < lead || mem_size - lead < need) return NULL;
    blocks = (uint8_t *)mem + lead;
  } else if (mem_size != 0u) {
    return NULL;
  }
  uint8_t flags;
  tc_os2_memory_pool *mp = OS2_CB_ALLOC(attr, sizeof *mp, &flags);
  if (mp == NULL) return NULL;
  void *data = blocks;
  if (!os2_data_alloc(&data, need, &flags)) {
    os2_release(mp, flags, NULL);
    return NULL;
  }
  blocks = data;
  mp->flags = flags;
  mp->mem = blocks;
  mp->mem_size = (uint32_t)need;
  mp->block_count = block_count;
  mp->block_size = block_size;
  if (tc_block_pool_create(&mp->pool, OS2_ATTR_NAME(attr), block_size, blocks, need) != TC_OK) {
    os2_release(mp, mp->flags, blocks);
    return NULL;
  }
  mp->magic = OS2_MAGIC_POOL;
  return mp;
}

const char *osMemoryPoolGetName(osMemoryPoolId_t mp_id)
{
  if (os2_refused("osMemoryPoolGetName")) return NULL;
  tc_os2_memory_pool *mp = pool(mp_id);
  return mp != NULL ? mp->pool.name : NULL;
}

/* An id is the address of the control block's tc_block_pool (os2.h, OS2_OWN_CHECKS). */
_Static_assert(offsetof(tc_os2_memory_pool, pool) == 0, "a pool's id is its tc_block_pool");

void *osMemoryPoolAlloc(osMemoryPoolId_t mp_id, uint32_t timeout)
{
  if (OS2_OWN_CHECKS && (pool(mp_id) == NULL || (timeout != 0u && os2_in_isr()))) return NULL;
  void *block;
  return tc_block_alloc(mp_id, &block, timeout) == TC_OK ? block : NULL;
}

osStatus_t osMemoryPoolFree(osMemoryPoolId_t mp_id, void *block)
{
  tc_os2_memory_pool *mp = pool(mp_id);
  /* A block of another pool is refused before the kernel sees it (the kernel finds a block's
   * pool by itself and would accept it). */
  if (mp == NULL || (uint8_t *)block < mp->mem || (uint8_t *)block >= mp->mem + mp->mem_size) {
    if (os2_refused("osMemoryPoolFree")) return osErrorISR;
    return osErrorParameter;
  }
  tc_status st = tc_block_free(block);
  if (__builtin_expect(st == TC_OK, 1)) return osOK;
  return st == TC_INVALID ? osErrorResource : os2_status(st); /* not allocated: a double free */
}

uint32_t osMemoryPoolGetCapacity(osMemoryPoolId_t mp_id)
{
  if (os2_refused("osMemoryPoolGetCapacity")) return 0u;
  tc_os2_memory_pool *mp = pool(mp_id);
  return mp != NULL ? mp->block_count : 0u;
}

uint32_t osMemoryPoolGetBlockSize(osMemoryPoolId_t mp_id)
{
  if (os2_refused("osMemoryPoolGetBlockSize")) return 0u;
  tc_os2_memory_pool *mp = pool(mp_id);
  return mp != NULL ? mp->block_size : 0u;
}

uint32_t osMemoryPoolGetCount(osMemoryPoolId_t mp_id)
{
  if (os2_refused("osMemoryPoolGetCount")) return 0u;
  tc_os2_memory_pool *mp = pool(mp_id);
  tc_block_pool_info_t info;
  if (mp == NULL || tc_block_pool_info(&mp->pool, &info) != TC_OK) return 0u;
  return info.total - info.available;
}

uint32_t osMemoryPoolGetSpace(osMemoryPoolId_t mp_id)
{
  if (os2_refused("osMemoryPoolGetSpace")) return 0u;
  tc_os2_memory_pool *mp = pool(mp_id);
  tc_block_pool_info_t info;
  if (mp == NULL || tc_block_pool_info(&mp->pool, &info) != TC_OK) return 0u;
  return info.available;
}

osStatus_t osMemoryPoolDelete(osMemoryPoolId_t mp_id)
{
  if (os2_refused("osMemoryPoolDelete") || os2_in_isr()) return osErrorISR;
  tc_os2_memory_pool *mp = pool(mp_id);
  if (mp == NULL) return osErrorParameter;
  tc_status st = tc_block_pool_delete(&mp->pool);
  if (st != TC_OK) return os2_status(st);
  mp->magic = 0;
  os2_release(mp, mp->flags, mp->mem);
  return osOK;
}
