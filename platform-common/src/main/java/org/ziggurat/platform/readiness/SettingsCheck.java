package org.ziggurat.platform.readiness;

/**
 * A service's own settings that a production run must not start with (its keys, its public
 * URLs). Every bean of this type is asked at start by {@link StartupChecks}.
 */
public interface SettingsCheck {

    void check(UnsafeSettings settings);
}
