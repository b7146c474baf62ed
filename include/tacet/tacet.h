/* Tacet public API: include this one header. */
#ifndef TACET_H
#define TACET_H

#include "tacet/config.h"
#include "tacet/types.h"
#include "tacet/kernel.h"
#include "tacet/thread.h"

#endif /* TACET_H */
