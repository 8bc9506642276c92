import HangmanGame
import PackServiceAPI

extension Player {
    /// A seat at this device's games: the saved game no other `play` holds and whose pack is
    /// among `playable` (`gamePacks`), or a new slot.
    public func takeSeat(playable: Set<ProductID>) throws(PlayerError) -> GameSeat {
        do { return try device.takeSeat(playable: playable) } catch { throw .device(error) }
    }

    /// How the game asked for differs from the one saved in `seat` (`GameSession.savedGameConflicts`).
    public func savedGameConflicts(seat: GameSeat, packs: [ProductID], category: String?, lives: Int?) throws(PlayerError) -> [String] {
        do {
            return try GameSession.savedGameConflicts(device: device, seat: seat, packs: packs, category: category, lives: lives)
        } catch {
            throw .device(error)
        }
    }

    /// Resumes the game saved in `seat`, or starts one with a word from `packs`; `nil` when the
    /// packs have no word (in that category). Hints are spent through this session's service.
    public func startGame<G: RandomNumberGenerator>(
        seat: GameSeat, packs: [InstalledPack], category: String?, lives: Int, fresh: Bool, using generator: inout G
    ) throws(PlayerError) -> GameSession? {
        do {
            return try GameSession.start(
                device: device, service: service, seat: seat, packs: packs, category: category, lives: lives, fresh: fresh, clock: clock,
                using: &generator)
        } catch {
            throw .device(error)
        }
    }

    /// The hint balance to show: current, or the last one the server signed when it cannot be reached.
    public func hintCount() async throws(PlayerError) -> HintCount {
        do { return try await HintCount.read(from: service) } catch { throw .store(error) }
    }
}
