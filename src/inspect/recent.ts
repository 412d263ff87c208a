/** How much a {@link Recent} keeps: the newest items within both bounds. */
export interface RecentLimits {
  readonly items: number;
  /** Total size of the kept items, by their `size`. */
  readonly bytes: number;
}

/**
 * The newest items within a count and a size: what the inspector replays to a page that opens
 * later, so its memory stays bounded however long the session runs. Counts what it dropped.
 */
export class Recent<T> {
  private readonly kept: { item: T; size: number }[] = [];
  private head = 0;
  private bytes = 0;
  /** Items dropped since the start, oldest first. */
  dropped = 0;

  constructor(
    readonly limits: RecentLimits,
    private readonly sizeOf: (item: T) => number,
  ) {}

  push(item: T): void {
    const size = this.sizeOf(item);
    this.kept.push({ item, size });
    this.bytes += size;
    // The newest item stays even when it alone passes the size bound.
    while (this.length > 1 && (this.length > this.limits.items || this.bytes > this.limits.bytes)) {
      const oldest = this.kept[this.head];
      this.head += 1;
      this.bytes -= oldest?.size ?? 0;
      this.dropped += 1;
    }
    // Compact now and then, so the array does not hold what was dropped.
    if (this.head > 1024 && this.head * 2 > this.kept.length) {
      this.kept.splice(0, this.head);
      this.head = 0;
    }
  }

  get length(): number {
    return this.kept.length - this.head;
  }

  /** The kept items, oldest first. */
  items(): T[] {
    return this.kept.slice(this.head).map((k) => k.item);
  }
}
