/* SPDX-License-Identifier: MIT */
/*
 * The handlers of the board's external interrupt lines, under the names the board gives them
 * (TC_BOARD_IRQ_HANDLERS, tacet_board.h: the vendor's CMSIS names). startup.c defines each
 * one weak and puts it in the vector table; an application defines the ones it uses
 * (tacet/cortex_m.h, "Names"). Included by tacet/cortex_m.h.
 */
#ifndef TACET_CM_HANDLERS_H
#define TACET_CM_HANDLERS_H

#include "tacet_board.h"

#ifdef TC_BOARD_IRQ_HANDLERS
#define TC_CM_DECLARE_HANDLER(n, name) void name(void);
TC_BOARD_IRQ_HANDLERS(TC_CM_DECLARE_HANDLER)
#undef TC_CM_DECLARE_HANDLER
#endif

#endif /* TACET_CM_HANDLERS_H */
