import SystemCalls
import WordPacks

/// One process's place among this device's games: a slot that holds at most one saved game,
/// taken with an exclusive lock (`game-<slot>.lock` in the device folder, `FileLock`) and held
/// until the value goes away, or the process dies.
///
/// A saved game is played only by the process holding its slot: a second `hangman play` finds it
/// taken and gets a slot, and a game, of its own. So a game's hints are asked for by one process,
/// one at a time, and each revealed letter is paid exactly once.
public final class GameSeat: Sendable {
    /// The slot number, from 1.
    public let slot: Int
    /// A game is saved in a slot that another process holds: this seat is a new one beside it.
    public let passedOverSavedGame: Bool
    /// The packs (display names) of saved games passed over because the account may not play
    /// them now (a pass ended, a refund): each stays saved, and resumes once the pack is playable again.
    public let setAside: [String]
    private let lock: FileLock

    init(slot: Int, passedOverSavedGame: Bool, setAside: [String] = [], lock: FileLock) {
        self.slot = slot
        self.passedOverSavedGame = passedOverSavedGame
        self.setAside = setAside
        self.lock = lock
    }

    /// Leaves the seat: its slot is free for the next `hangman play` from now on, even while this
    /// value is still held somewhere (a command run in-process ends before its values go).
    public func leave() {
        lock.unlock()
    }

    /// More slots than any number of terminals on one device: past it, something is wrong.
    static let slotLimit = 1000
}

extension DeviceDatabase {
    /// Whether a game is saved on this device on one of the `playable` packs: a game played here
    /// while the pack server was away waits to be finished here.
    public func hasSavedGame(playable: Set<ProductID>) throws(DeviceError) -> Bool {
        try savedSlots().contains { playable.contains($0.pack) }
    }

    /// Takes the slot of the most recent saved game that no other process is playing and whose
    /// pack is among `playable`, or else a free slot (one without a saved game). A saved game on
    /// a pack the account may not play now is kept, not resumed: nothing is spent on it.
    public func takeSeat(playable: Set<ProductID>) throws(DeviceError) -> GameSeat {
        let saved = try savedSlots()
        var setAside: [String] = []
        var passedOver = false
        for game in saved {
            guard playable.contains(game.pack) else {
                if !setAside.contains(game.packName) { setAside.append(game.packName) }
                continue
            }
            if let lock = try lockSlot(game.slot) { return GameSeat(slot: game.slot, passedOverSavedGame: false, setAside: setAside, lock: lock) }
            passedOver = true
        }
        let taken = Set(saved.map(\.slot))
        for slot in 1...GameSeat.slotLimit where !taken.contains(slot) {
            if let lock = try lockSlot(slot) { return GameSeat(slot: slot, passedOverSavedGame: passedOver, setAside: setAside, lock: lock) }
        }
        throw DeviceError(.storage, "\(GameSeat.slotLimit) games are being played on this device at once: finish some first")
    }

    private func lockSlot(_ slot: Int) throws(DeviceError) -> FileLock? {
        do {
            return try FileLock.tryLocking(atPath: folder + "/game-\(slot).lock")
        } catch {
            throw DeviceError(.storage, "cannot take a game slot: \(error)")
        }
    }
}
