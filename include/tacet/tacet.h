/* SPDX-License-Identifier: MIT */
/* Tacet public API: include this one header. */
#ifndef TACET_H
#define TACET_H

#include "tacet/config.h"
#include "tacet/types.h"
#include "tacet/kernel.h"
#include "tacet/thread.h"
#include "tacet/hisr.h"
#include "tacet/timer.h"
#include "tacet/block_pool.h"
#include "tacet/byte_pool.h"
#include "tacet/signal.h"
#include "tacet/sem.h"
#include "tacet/mutex.h"
#include "tacet/queue.h"
#include "tacet/msgport.h"
#include "tacet/taskport.h"
#include "tacet/event.h"
#include "tacet/trace.h"

#endif /* TACET_H */
