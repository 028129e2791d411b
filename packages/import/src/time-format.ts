const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => String(n).padStart(2, '0');

/** Python's `time.asctime()` in the server's local time: `Mon Aug 28 17:41:27 2017`, the day padded with a space. */
export function asctime(date: Date): string {
  const day = String(date.getDate()).padStart(2, ' ');
  const time = `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
  return `${weekdays[date.getDay()]} ${months[date.getMonth()]} ${day} ${time} ${date.getFullYear()}`;
}

/** A duration as `HH:MM:SS`, truncated to the second (hours keep growing past 99). */
export function execTime(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
}
