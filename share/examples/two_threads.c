/* two_threads.c - two threads record into their own recorders; main dumps.
 *
 * Build:  cc two_threads.c $(pkg-config --cflags --libs recorder) -pthread
 * Try:    RECORDER_TRACES=consumer ./two_threads   (trace one recorder live)
 *         RECORDER_TWEAKS=recorder_location ./two_threads
 */
#include <recorder/recorder.h>

#include <pthread.h>
#include <stdio.h>

RECORDER(producer, 64, "Items made by the producer thread");
RECORDER(consumer, 64, "Items taken by the consumer thread");
RECORDER_TWEAK_DEFINE(items, 8, "How many items to pass between threads");

static int queue[4];
static unsigned head, tail;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;

static void *produce(void *arg)
{
    (void) arg;
    for (int item = 0; item < RECORDER_TWEAK(items); item++)
    {
        pthread_mutex_lock(&lock);
        while (head - tail == 4)
            pthread_cond_wait(&changed, &lock);
        queue[head++ % 4] = item * item;
        record(producer, "Made item %d = %d, %u queued",
               item, item * item, head - tail);
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&lock);
    }
    record(producer, "Done after %ld items", (long) RECORDER_TWEAK(items));
    return NULL;
}

static void *consume(void *arg)
{
    double *sum = arg;
    for (int item = 0; item < RECORDER_TWEAK(items); item++)
    {
        pthread_mutex_lock(&lock);
        while (head == tail)
            pthread_cond_wait(&changed, &lock);
        int value = queue[tail++ % 4];
        *sum += value;
        record(consumer, "Took %d, running sum %.1f", value, *sum);
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void)
{
    recorder_dump_on_common_signals(0, 0);
    record(recorder, "Starting %+s with %ld items", "two_threads",
           (long) RECORDER_TWEAK(items));

    double sum = 0;
    pthread_t threads[2];
    pthread_create(&threads[0], NULL, produce, NULL);
    pthread_create(&threads[1], NULL, consume, &sum);
    pthread_join(threads[0], NULL);
    pthread_join(threads[1], NULL);

    printf("Sum of squares: %.0f. The flight recorder saw:\n", sum);
    fflush(stdout);
    unsigned shown = recorder_dump_for("producer|consumer");
    printf("%u records dumped, merged in time order across both threads.\n",
           shown);
    return 0;
}
