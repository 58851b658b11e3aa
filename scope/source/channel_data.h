/* channel_data.h - the scope's data: each channel's history (series.h)
 * and the sources that fill it from segments (source.h). */
#ifndef SCOPE_CHANNEL_DATA_H
#define SCOPE_CHANNEL_DATA_H

#include "source/series.h"
#include "source/source.h"

#endif /* SCOPE_CHANNEL_DATA_H */
