/* timing_unit.c - ns, us, ms or s for the timing axis. */
#include "view/timing_unit.h"

scope_timing_unit scope_timing_unit_for(double largest_us)
{
    static const scope_timing_unit units[] = {
        { 1e3, "ns" }, { 1.0, "us" }, { 1e-3, "ms" }, { 1e-6, "s" },
    };
    if (!(largest_us > 0))
        return units[1];
    /* Rounded a little up: an axis that tops at 999.9 us reads 1 ms. */
    if (largest_us < 0.9995)
        return units[0];
    if (largest_us < 999.5)
        return units[1];
    if (largest_us < 999.5e3)
        return units[2];
    return units[3];
}
