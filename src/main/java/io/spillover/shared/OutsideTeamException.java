package io.spillover.shared;

/**
 * A caller outside a team asked for something of it: answered 404, exactly as a team that does not exist, so
 * names do not leak. A form that flashes other missing things still answers this one with its 404.
 */
public class OutsideTeamException extends NotFoundException {

    public OutsideTeamException(String team) {
        super("no team " + team);
    }
}
