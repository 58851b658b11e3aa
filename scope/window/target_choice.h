/* target_choice.h - where commands and sliders go, in the header bar.
 *
 * A drop-down listing "all processes" and each segment of the source by
 * PROGRAM[PID]; the choice sets the source's target (multi_source.h). It
 * shows only when the source has several segments (several -S or a
 * pattern).
 */
#ifndef SCOPE_TARGET_CHOICE_H
#define SCOPE_TARGET_CHOICE_H

#include "source/channel_data.h"

#include <gtk/gtk.h>

/* 'changed' (may be NULL) is told of every choice, by the user or by
 * scope_target_choice_next(). */
GtkWidget *scope_target_choice_new(scope_source *source,
                                   void (*changed)(void *data), void *data);
/* The names again, after segments joined or attached. */
void scope_target_choice_update(GtkWidget *choice);
/* The next segment, or "all" after the last. */
void scope_target_choice_next(GtkWidget *choice);
/* What is chosen, in words: "all" or PROGRAM[PID]. */
const char *scope_target_choice_text(GtkWidget *choice);

#endif /* SCOPE_TARGET_CHOICE_H */
