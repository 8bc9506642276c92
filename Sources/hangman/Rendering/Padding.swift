extension String {
    /// The text padded with spaces to `length` characters, or cut to it when longer (as
    /// `NSString`'s `padding(toLength:withPad:startingAt:)` with a space).
    func padded(to length: Int) -> String {
        count >= length ? String(prefix(length)) : self + String(repeating: " ", count: length - count)
    }
}
